// photonsim availability: a month (or --days) of training under failures
// drawn from fabric.random_failures, each fabric state's iteration simulated
// once, goodput per on_failure policy (verbs.h; docs/cli.md, "availability").
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/enum_names.h"
#include "core/error.h"
#include "core/memory_budget.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/availability/availability_report.h"
#include "sim/availability/availability_study.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/verbs.h"

namespace po = boost::program_options;

namespace photonsim::cli {
namespace {

// "replan,abort_restart" or "all" (every policy, in the schema's order).
std::vector<FailurePolicy> policies_named(const std::string& text) {
  std::vector<FailurePolicy> out;
  if (text == "all") {
    for (const auto& entry : kFailurePolicyNames) out.push_back(entry.value);
    return out;
  }
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    const std::optional<FailurePolicy> policy = value_named(kFailurePolicyNames, item);
    if (!policy)
      throw po::error("--policies: unknown policy '" + item + "' (valid: " + names_of(kFailurePolicyNames) +
                      ", or all)");
    for (FailurePolicy seen : out)
      if (seen == *policy) throw po::error("--policies names " + item + " twice");
    out.push_back(*policy);
  }
  if (out.empty()) throw po::error("--policies needs at least one policy");
  return out;
}

}  // namespace

int verb_availability(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                      const MemoryBudget& budget) {
  CommonOptions o;
  AvailabilityOptions options;
  std::string policies;
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")(
      "set", po::value(&o.sets)->composing()->value_name("KEY=VALUE"), "override one config key (repeatable)")(
      "days", po::value(&options.days)->default_value(30), "how long the training runs, 1..106 days")(
      "seeds", po::value(&options.seeds)->default_value(100), "failure timelines drawn, each its own seed")(
      "policies", po::value(&policies)->value_name("LIST"),
      "on_failure policies compared, comma-separated, or all (default: the config's fabric.on_failure)")(
      "fidelity", po::value(&o.fidelity)->default_value("packet"),
      "packet | packet_reference | chunk | analytical: how each fabric state's iteration is simulated")(
      "seed", po::value<std::string>(), "the experiment's seed (the first timeline's, unless "
      "fabric.random_failures.seed is given)")(
      "format", po::value(&o.format)->default_value("table"), "table | json | csv");
  // clang-format on
  std::string config_path;
  po::variables_map vm = parse(argc, argv, d, {{"config", &config_path}});
  if (print_help_if_asked(vm, out,
                          "usage: photonsim availability CONFIG.yaml [--days 30] [--seeds 100] [--policies LIST] "
                          "[options]\n"
                          "Draws port failures and flaps from fabric.random_failures over --days for each of --seeds\n"
                          "timelines, simulates each fabric state's iteration once, and reports goodput (useful\n"
                          "iterations per hour), the iteration time's distribution and the time lost per cause, for\n"
                          "each on_failure policy.\n\n",
                          d))
    return 0;
  if (config_path.empty()) throw po::error("availability needs CONFIG.yaml");
  check_format(o.format, {"table", "json", "csv"});
  try {
    options.fidelity = parse_fidelity(o.fidelity);
    check_availability_options(options);
  } catch (const Error& e) {
    throw po::error(e.what());
  }
  if (vm.count("policies")) options.policies = policies_named(policies);
  const ExperimentPipeline pipeline(&budget);
  ExperimentConfig config = pipeline.load(config_path, o.sets);
  if (vm.count("seed")) config.seed = seed_value(vm);
  if (config.imported_schedule)
    throw Error(config_path + ": workload.graph: availability studies a task graph or one synthesized collective");
  for (const std::string& warning : config.warnings) err << "photonsim: warning: " << warning << "\n";
  const AvailabilityReport report{config_path, o.sets, run_availability_study(pipeline, config, options)};
  out << render_availability_report(report, o.format);
  return 0;
}

}  // namespace photonsim::cli
