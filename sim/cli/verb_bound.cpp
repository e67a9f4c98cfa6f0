// photonsim bound: the all-to-all paper's lower bound on summed round hop
// counts, optionally next to rdc's (verbs.h).
#include <optional>
#include <ostream>
#include <string>

#include "core/memory_budget.h"
#include "schedules/alltoall/rdc/rdc.h"
#include "schedules/reconfiguration_bound_table.h"
#include "sim/app/memory_estimate.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/verbs.h"
#include "sim/reports/bound_report.h"

namespace po = boost::program_options;

namespace photonsim::cli {

int verb_bound(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget) {
  int gpus = 0, ports = 1;
  std::string format = "table";
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")("gpus", po::value(&gpus), "number of GPUs n (>= 2)")(
      "ports", po::value(&ports)->default_value(1), "optical ports (switches) per GPU k (>= 1)")(
      "reconfigs", po::value<int>(), "configured topologies d in 1..n-1 (default: every d)")(
      "compare", "also print rdc's sum of round hop counts and its ratio to the bound")(
      "seed", po::value<std::string>()->default_value("1"), "seed for rdc's random tie-breaks (k > 1)")(
      "format", po::value(&format), "table | json | csv");
  // clang-format on
  po::variables_map vm = parse(argc, argv, d);
  if (print_help_if_asked(
          vm, out,
          "usage: photonsim bound --gpus N --ports K [--reconfigs D] [options]\n"
          "Prints the all-to-all paper's lower bound (Theorem 1) on the summed round hop counts, in units of T.\n\n",
          d))
    return 0;
  if (!vm.count("gpus")) throw po::error("bound needs --gpus N");
  check_format(format, {"table", "json", "csv"});
  std::optional<int> reconfigs;
  if (vm.count("reconfigs")) reconfigs = vm["reconfigs"].as<int>();
  if (gpus >= 2) {  // smaller n is refused by the bound itself, naming n
    const MemoryEstimate need = estimate_bound_memory(gpus, ports, reconfigs, vm.count("compare") > 0);
    budget.check(need.bytes, "bound: " + need.what);
  }
  if (vm.count("compare") && gpus >= 192 && ports > 1) {
    // rdc's Generalized Kautz family for every d grows about as n^3.5 (128 GPUs ~3 s, 256 ~30 s on this
    // engine); above its size limit rdc (and so --compare) builds the Circulant family alone (1024 GPUs:
    // about 30 s), and with one port it is the shift search alone (4096 GPUs in about 2 s).
    err << "photonsim: warning: --compare builds rdc for every d at n = " << gpus
        << "; at 256 GPUs that takes about 30 s, and above " << Rdc::kGenKautzAutoLimit
        << " GPUs (the Circulant family alone) about 30 s at 1024 and minutes beyond\n"
        << std::flush;
  }
  const bool compare = vm.count("compare") > 0;
  const BoundReport report =
      BoundReport::of(gpus, ports, reconfigs.has_value(), compare,
                      reconfiguration_bound_table(gpus, ports, reconfigs, compare, seed_value(vm)));
  out << (format == "json" ? report.json() : format == "csv" ? report.csv() : report.table());
  return 0;
}

}  // namespace photonsim::cli
