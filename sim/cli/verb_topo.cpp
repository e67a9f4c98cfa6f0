// photonsim topo: one generated topology described (degree, diameter,
// hop distances, theta) without a config (verbs.h).
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/memory_budget.h"
#include "sim/app/memory_estimate.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/verbs.h"
#include "sim/reports/topology_report.h"
#include "topology/topology_registry.h"

namespace po = boost::program_options;

namespace photonsim::cli {

int verb_topo(int argc, const char* const* argv, std::ostream& out, const MemoryBudget& budget) {
  std::string type, format = "table", circuits = "directed";
  int gpus = 0;
  std::vector<std::string> extra;
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")("type", po::value(&type), "generator name (photonsim list)")(
      "gpus", po::value(&gpus), "number of GPUs")("degree", po::value<std::string>(), "degree parameter")(
      "dims", po::value<std::string>(), "dimensions AxB or AxBxC (torus, grid)")(
      "shift", po::value<std::string>(), "shift (shifted_ring)")(
      "generators", po::value<std::string>(), "generator set a,b,... (circulant)")(
      "param", po::value(&extra)->composing(), "any other generator parameter, key=value (repeatable)")(
      "seed", po::value<std::string>()->default_value("1"), "seed for randomised generators")(
      "ports", po::value<int>(), "check the topology against this many ports per GPU")(
      "circuits", po::value(&circuits), "directed | bidirectional (for --ports and defaults)")(
      "demand", po::value<std::string>(), "compute theta for this demand: alltoall")(
      "format", po::value(&format), "table | json | dot");
  // clang-format on
  po::variables_map vm = parse(argc, argv, d);
  if (print_help_if_asked(
          vm, out,
          "usage: photonsim topo --type NAME --gpus N [options]\n"
          "Builds a topology and prints its degree, diameter, average hop distance and, with --demand, theta.\n\n",
          d))
    return 0;
  if (type.empty()) throw po::error("topo needs --type NAME");
  if (gpus < 2) throw po::error("--gpus: must be at least 2, got " + std::to_string(gpus));
  check_format(format, {"table", "json", "dot"});
  TopologySpec spec{type, {}};
  for (const char* key : {"degree", "dims", "shift", "generators"}) {
    if (vm.count(key)) spec.params[key] = vm[key].as<std::string>();
  }
  for (const std::string& assignment : extra) {
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) throw po::error("--param: expected key=value, got '" + assignment + "'");
    spec.params[assignment.substr(0, eq)] = assignment.substr(eq + 1);
  }
  FabricSpec fabric;
  fabric.gpus = gpus;
  if (circuits != "directed" && circuits != "bidirectional") {
    throw po::error("--circuits: must be directed or bidirectional, got '" + circuits + "'");
  }
  fabric.circuits = circuits == "directed" ? CircuitKind::directed : CircuitKind::bidirectional;
  // Without --ports nothing limits the degree: topo describes, it does not check.
  fabric.ports = vm.count("ports") ? vm["ports"].as<int>() : std::numeric_limits<int>::max();
  if (fabric.ports < 1) throw po::error("--ports: must be at least 1, got " + std::to_string(fabric.ports));
  {
    // Before anything of size n is built (a ring of 10^9 GPUs would take minutes to hit the limit).
    const MemoryEstimate need = estimate_topology_memory(spec, fabric, vm.count("demand") > 0);
    budget.check(need.bytes, "topo: " + need.what);
  }
  std::optional<Topology> topology = TopologyRegistry::with_builtin_generators().make(spec, fabric, seed_value(vm));
  if (!topology) throw po::error("--type none has no circuits to describe");
  std::optional<std::string> demand;
  if (vm.count("demand")) demand = vm["demand"].as<std::string>();
  const TopologyReport report = TopologyReport::build(type, std::move(*topology), demand);
  out << (format == "json" ? report.json() : format == "dot" ? report.dot() : report.table());
  return 0;
}

}  // namespace photonsim::cli
