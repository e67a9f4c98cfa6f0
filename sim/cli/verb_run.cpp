// photonsim run and photonsim replay: a config's schedule (or a saved one)
// simulated on the config's fabric, a task graph run node by node, and the
// report, outputs and trace they write (verbs.h).
#include <string>
#include <utility>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/memory_budget.h"
#include "core/output_guard.h"
#include "schedules/model/schedule_io.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/app/output_writer.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/verb_support.h"
#include "sim/cli/verbs.h"
#include "sim/reports/graph_trace_report.h"
#include "sim/reports/provenance.h"
#include "sim/reports/trace_report.h"

namespace po = boost::program_options;

namespace photonsim::cli {

int verb_run(int argc, const char* const* argv, std::ostream& out, std::ostream& err, bool replay,
             const MemoryBudget& budget, const std::vector<std::string>& command) {
  CommonOptions o;
  po::options_description d = common_description(o, !replay);
  if (replay) {
    // clang-format off
    d.add_options()("no-verify", "replay without first proving the schedule's post-condition (photonsim verify)");
    // clang-format on
  }
  std::string trace_path;
  // clang-format off
  d.add_options()("trace", po::value(&trace_path)->value_name("FILE.json"),
                  "write the run's timeline (steps, GPUs, ports) to FILE.json, a Chrome/Perfetto trace");
  // clang-format on
  std::string config_path, schedule_path;
  std::vector<std::pair<const char*, std::string*>> positionals;
  if (replay) positionals.push_back({"schedule", &schedule_path});
  positionals.push_back({"config", &config_path});
  po::variables_map vm = parse(argc, argv, d, positionals);
  if (print_help_if_asked(
          vm, out,
          replay ? "usage: photonsim replay FILE.pb CONFIG.yaml [options]\n"
                   "Verifies a saved schedule, then replays it on the fabric of CONFIG.yaml from the schedule's\n"
                   "own initial topology, predicted again for that fabric by the schedule's cost model.\n\n"
                 : "usage: photonsim run CONFIG.yaml [options]\n"
                   "Synthesizes the configured schedule, simulates it and prints measured vs predicted time.\n\n",
          d))
    return 0;
  if (config_path.empty() || (replay && schedule_path.empty())) {
    throw po::error(replay ? "replay needs FILE.pb and CONFIG.yaml" : "run needs CONFIG.yaml");
  }
  check_format(o.format, {"table", "json", "csv"});
  const Fidelity fidelity = [&] {
    try {
      return parse_fidelity(o.fidelity);
    } catch (const Error& e) {
      throw po::error(e.what());
    }
  }();
  const bool tracing = vm.count("trace") > 0;
  if (tracing && trace_path.empty()) throw po::error("--trace needs FILE.json");
  if (tracing) check_replaceable(trace_path);  // before the run, not after it
  const ExperimentPipeline pipeline(&budget);
  ExperimentConfig config = pipeline.load(config_path, o.sets);
  if (vm.count("seed")) config.seed = seed_value(vm);
  if ((config.graph || config.imported_schedule) && replay)
    throw Error(config_path + ": workload.graph: replay takes one schedule; run the graph with photonsim run");
  const std::string out_dir = o.out.empty() ? config.output_dir : o.out;
  const Provenance provenance{command, config_path, config.resolved_yaml, working_directory()};
  {
    std::vector<NamedPath> inputs = config.inputs;
    if (replay) inputs.push_back({"schedule", schedule_path});
    std::vector<NamedPath> outputs;
    if (tracing) outputs.push_back({"--trace", trace_path});
    const std::string out_role = o.out.empty() ? "output.dir" : "--out";
    if (!out_dir.empty()) {
      for (const std::string& name : output_files(config.graph ? OutputFolder::graph : OutputFolder::run))
        outputs.push_back({out_role, out_dir + "/" + name});
    }
    refuse_outputs_over_inputs(outputs, inputs);  // before anything is written
  }
  if (config.graph) {
    for (const std::string& warning : config.warnings) err << "photonsim: warning: " << warning << "\n";
    Timeline graph_timeline;
    const GraphReport report = [&] {
      TerminalProgress progress = terminal_progress(err);
      return pipeline.run_graph(config, fidelity, tracing ? &graph_timeline : nullptr, &progress);
    }();
    write_graph_outputs(report, out_dir, provenance);
    if (tracing) {
      TraceOptions options;
      options.about = {{"config", config_path},
                       {"algorithm", config.synthesis.algorithm},
                       {"planner", config.synthesis.planner},
                       {"fidelity", to_string(fidelity)},
                       {"seed", std::to_string(config.seed)}};
      write_file_atomically(trace_path,
                            graph_trace_report(*config.graph, report.result, graph_timeline, config.fabric, options));
    }
    out << render_graph_report(report, o.format);
    return 0;
  }
  TerminalProgress progress = terminal_progress(err);
  Timeline timeline;
  Timeline* recording = tracing && fidelity != Fidelity::analytical ? &timeline : nullptr;
  RunReport report = replay ? pipeline.replay(read_schedule(schedule_path), schedule_path, config,
                                              vm.count("no-verify") == 0, fidelity, &progress, recording)
                            : pipeline.run(config, fidelity, &progress, recording);
  if (report.schedule.custom()) {
    err << "photonsim: warning: the schedule is a custom collective (MSCCL coll=\"custom\"): it has no "
           "post-condition, so nothing proves it moves the data it should\n";
  }
  write_run_outputs(report, out_dir, provenance);
  if (tracing) {
    TraceOptions options;
    options.about = {{"config", config_path}};
    if (replay) options.about.push_back({"schedule", schedule_path});
    options.about.push_back({"collective", to_string(report.schedule.collective())});
    options.about.push_back({"algorithm", report.schedule.algorithm()});
    options.about.push_back({"fidelity", to_string(fidelity)});
    options.about.push_back({"seed", std::to_string(config.seed)});
    write_file_atomically(trace_path, trace_report(report.result, recording, config.fabric, options));
  }
  out << render_report(report, o.format);
  return 0;
}

}  // namespace photonsim::cli
