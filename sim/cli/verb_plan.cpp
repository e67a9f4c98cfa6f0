// photonsim plan: every planner on the configured algorithm, ranked by
// predicted time (verbs.h).
#include <string>
#include <vector>

#include "core/memory_budget.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/planning_failures_output.h"
#include "sim/cli/verb_support.h"
#include "sim/cli/verbs.h"

namespace po = boost::program_options;

namespace photonsim::cli {

int verb_plan(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget) {
  std::vector<std::string> sets;
  std::string config_path, format = "table";
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")("set", po::value(&sets)->composing(), "override a config key (repeatable)")(
      "format", po::value(&format), "table | json");
  // clang-format on
  po::variables_map vm = parse(argc, argv, d, {{"config", &config_path}});
  if (print_help_if_asked(vm, out,
                          "usage: photonsim plan CONFIG.yaml [options]\n"
                          "Runs every planner on the configured algorithm and ranks them by predicted time.\n\n",
                          d))
    return 0;
  if (config_path.empty()) throw po::error("plan needs CONFIG.yaml");
  check_format(format, {"table", "json"});
  const ExperimentPipeline pipeline(&budget);
  const ExperimentConfig config = pipeline.load(config_path, sets);
  ExperimentPipeline::require_one_collective(config, "plan");
  const PlanReport report = [&] {
    TerminalProgress progress = terminal_progress(err);
    return pipeline.plan(config, &progress);
  }();
  // What the failures known when planning took away (nothing without them).
  const PlanningFailuresOutput failures(config.fabric);
  out << (format == "json" ? failures.json(report.json()) : failures.table() + report.table());
  return 0;
}

}  // namespace photonsim::cli
