// photonsim physical: how fabric.physical realises each configuration of
// the schedule (MZI meshes, server-grid fibers, loss) (verbs.h).
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/memory_budget.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/verb_support.h"
#include "sim/cli/verbs.h"
#include "sim/reports/physical_report.h"
#include "topology/physical/physical_layer.h"

namespace po = boost::program_options;

namespace photonsim::cli {

int verb_physical(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget) {
  std::vector<std::string> sets;
  std::string config_path, format = "table";
  int step = -1;
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")("set", po::value(&sets)->composing(), "override a config key (repeatable)")(
      "step", po::value(&step), "only step K's configuration, circuit by circuit")(
      "format", po::value(&format), "table | json");
  // clang-format on
  po::variables_map vm = parse(argc, argv, d, {{"config", &config_path}});
  if (print_help_if_asked(
          vm, out,
          "usage: photonsim physical CONFIG.yaml [--step K] [--format table|json] [--set key=value]...\n"
          "Synthesizes the schedule and shows how fabric.physical realises each of its configurations:\n"
          "circuits routed through the MZI meshes (PCCL Algorithm 3) and across the server grid's fibers\n"
          "(Algorithm 4), fibers per server edge, longest path, worst loss, solver time.\n\n",
          d))
    return 0;
  if (config_path.empty()) throw po::error("physical needs CONFIG.yaml");
  if (vm.count("step") && step < 0) throw po::error("--step must be a step number >= 0");
  check_format(format, {"table", "json"});
  const ExperimentPipeline pipeline(&budget);
  const ExperimentConfig config = pipeline.load(config_path, sets);
  ExperimentPipeline::require_one_collective(config, "physical");
  if (!config.fabric.physical)
    throw Error(config_path + ": photonsim physical needs a fabric.physical section (servers, tiles, mesh, ...)");
  const Schedule schedule = [&] {
    TerminalProgress progress = terminal_progress(err);
    return pipeline.synthesize(config, &progress);
  }();
  const PhysicalLayer physical(*config.fabric.physical, config.fabric);
  const PhysicalReport report =
      PhysicalReport::build(schedule, physical, vm.count("step") ? std::optional<int>(step) : std::nullopt);
  out << (format == "json" ? report.json() : report.table());
  return 0;
}

}  // namespace photonsim::cli
