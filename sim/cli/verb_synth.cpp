// photonsim synth: a config's schedule written to a file (protobuf, MSCCL
// XML or Chakra traces) with its prediction step by step (verbs.h).
#include <string>
#include <vector>

#include "core/memory_budget.h"
#include "core/output_guard.h"
#include "core/time.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/app/output_writer.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/verb_support.h"
#include "sim/cli/verbs.h"

namespace po = boost::program_options;

namespace photonsim::cli {

int verb_synth(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget) {
  CommonOptions o;
  po::options_description d("options");
  std::string config_path, format;
  // clang-format off
  d.add_options()("help,h", "show this help")(
      "set", po::value(&o.sets)->composing(), "override a config key (repeatable)")(
      "out", po::value(&o.out), "schedule file to write (.pb binary; .pbtxt/.textproto text; .xml an MSCCL algorithm), "
                                "or with --format chakra the prefix of PREFIX.N.et")(
      "format", po::value(&format), "chakra: Chakra execution traces, one per rank (default: by --out's extension)");
  // clang-format on
  po::variables_map vm = parse(argc, argv, d, {{"config", &config_path}});
  if (print_help_if_asked(
          vm, out,
          "usage: photonsim synth CONFIG.yaml --out FILE.pb|FILE.xml\n"
          "       photonsim synth CONFIG.yaml --out PREFIX --format chakra\n"
          "Synthesizes the schedule, writes it (FILE.xml: as an MSCCL XML algorithm; --format chakra: as Chakra\n"
          "execution traces PREFIX.0.et, PREFIX.1.et, ..., its reconfigurations as compute nodes marked\n"
          "photonsim_reconfiguration, the schedule itself in PREFIX.0.et's metadata, so that photonsim runs the\n"
          "traces back as the schedule), and prints its prediction.\n\n",
          d))
    return 0;
  if (!format.empty()) check_format(format, {"chakra"});
  if (config_path.empty()) throw po::error("synth needs CONFIG.yaml");
  if (o.out.empty()) throw po::error(format == "chakra" ? "synth needs --out PREFIX" : "synth needs --out FILE.pb");
  const ExperimentPipeline pipeline(&budget);
  const ExperimentConfig config = pipeline.load(config_path, o.sets);
  ExperimentPipeline::require_one_collective(config, "synth");
  std::vector<NamedPath> outputs{{"--out", o.out}};
  if (format == "chakra") {
    outputs.clear();
    for (int r = 0; r < config.fabric.gpus; ++r) outputs.push_back({"--out", o.out + "." + std::to_string(r) + ".et"});
  }
  refuse_outputs_over_inputs(outputs, config.inputs);
  const Schedule schedule = [&] {
    TerminalProgress progress = terminal_progress(err);
    return pipeline.synthesize(config, &progress);
  }();
  const std::string wrote = write_schedule_files(schedule, o.out, format == "chakra");
  const Prediction& p = schedule.prediction();
  out << to_string(schedule.collective()) << " / " << schedule.algorithm() << " / planner " << schedule.planner()
      << ": " << schedule.steps().size() << " steps, " << schedule.reconfigurations() << " reconfigurations, "
      << schedule.topologies().size() << " topologies\n";
  out << "predicted (" << p.model << "): " << format_time(p.total()) << " (" << p.total().picoseconds() << " ps)\n";
  for (size_t s = 0; s < p.steps.size(); ++s) {
    const StepPrediction& sp = p.steps[s];
    out << "  step " << s << ": " << format_time(sp.total()) << " = reconfiguration " << format_time(sp.reconfiguration)
        << " + startup " << format_time(sp.startup) << " + propagation " << format_time(sp.propagation)
        << " + transmission " << format_time(sp.transmission) << "\n";
  }
  out << "wrote " << wrote << "\n";
  return 0;
}

}  // namespace photonsim::cli
