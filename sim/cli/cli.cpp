#include "sim/cli/cli.h"

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <thread>
#include <exception>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/atomic_file.h"
#include "core/build_info.h"
#include "core/error.h"
#include "core/memory_budget.h"
#include "core/output_guard.h"
#include "core/time_overflow.h"
#include "core/version.h"
#include "schedules/alltoall/rdc/rdc.h"
#include "schedules/reconfiguration_bound_table.h"
#include "schedules/verify/block_verifier.h"
#include "schedules/model/schedule_io.h"
#include "schedules/msccl/msccl_writer.h"
#include "schedules/synthesizer_registry.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/app/output_writer.h"
#include "sim/config/config_schema.h"
#include "sim/interop/chakra_writer.h"
#include "sim/reports/bound_report.h"
#include "sim/sweep/sweep_mpi.h"
#include "sim/sweep/sweep_runner.h"
#include "sim/sweep/sweep_spec.h"
#include "sim/config/config_loader.h"
#include "sim/app/experiment_runner.h"
#include "sim/app/task_graph_experiment.h"
#include "sim/reports/graph_trace_report.h"
#include "sim/app/memory_estimate.h"
#include "sim/reports/json_text.h"
#include "sim/reports/physical_report.h"
#include "sim/reports/plan_report.h"
#include "sim/reports/provenance.h"
#include "core/input_file.h"
#include "sim/cli/terminal_progress.h"
#include "sim/reports/topology_report.h"
#include "sim/reports/trace_report.h"
#include "sim/engine/switch/reconfiguration_models.h"
#include "topology/topology_registry.h"

namespace po = boost::program_options;

namespace photonsim {

namespace {

constexpr const char* kUsage =
    "photonsim " PHOTONSIM_VERSION
    " - packet-level simulator for photonic GPU fabrics\n"
    "\n"
    "usage:\n"
    "  photonsim run CONFIG.yaml [--set key=value]... [--format table|json|csv] [--out DIR] [--seed N]\n"
    "                [--fidelity packet|chunk|analytical] [--trace FILE.json]\n"
    "  photonsim synth CONFIG.yaml --out FILE.pb|FILE.xml|PREFIX [--format chakra] [--set key=value]...\n"
    "  photonsim replay FILE.pb CONFIG.yaml [--set key=value]... [--format table|json|csv] [--out DIR] [--no-verify]\n"
    "                [--trace FILE.json]\n"
    "  photonsim plan CONFIG.yaml [--set key=value]... [--format table|json]\n"
    "  photonsim list\n"
    "  photonsim verify CONFIG.yaml|FILE.pb [--set key=value]...\n"
    "  photonsim topo --type NAME --gpus N [--degree D] [--dims AxB[xC]] [--shift S] [--generators a,b,...]\n"
    "                 [--seed N] [--demand alltoall] [--format table|json|dot]\n"
    "  photonsim sweep SWEEP.yaml [--jobs N] [--out DIR] [--resume]\n"
    "  photonsim bound --gpus N --ports K [--reconfigs D] [--compare] [--format table|json|csv]\n"
    "  photonsim physical CONFIG.yaml [--step K] [--format table|json] [--set key=value]...\n"
    "  photonsim VERB --help\n"
    "\n"
    "every verb takes --max-memory SIZE (e.g. 8GiB; default 3/4 of physical memory): inputs estimated\n"
    "to need more are refused, and the process never grows past it.\n";

struct CommonOptions {
  std::vector<std::string> sets;
  std::string format = "table";
  std::string fidelity = "packet";
  std::string out;
  std::optional<uint64_t> seed;
};

// Boost would read "-1" into a uint64_t as 2^64-1; a seed is plain decimal digits.
uint64_t seed_value(const po::variables_map& vm) {
  const std::string text = vm["seed"].as<std::string>();
  uint64_t value = 0;
  const bool digits = !text.empty() && text.size() <= 20 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  bool fits = digits;
  for (char c : text) {
    if (!fits) break;
    fits = !__builtin_mul_overflow(value, 10u, &value) && !__builtin_add_overflow(value, uint64_t(c - '0'), &value);
  }
  if (!fits) {
    throw po::error("--seed: must be an integer in 0..18446744073709551615, got '" + text.substr(0, 80) + "'");
  }
  return value;
}

void check_format(const std::string& format, std::initializer_list<const char*> valid) {
  std::string names;
  for (const char* v : valid) {
    if (format == v) return;
    names += (names.empty() ? "" : ", ") + std::string(v);
  }
  throw po::error("--format: unknown format '" + format.substr(0, 80) + "' (valid: " + names + ")");
}

po::options_description common_description(CommonOptions& o, bool with_seed) {
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")(
      "set", po::value(&o.sets)->composing(),
      "override a config key, e.g. --set fabric.reconfig_delay=1us (repeatable)")(
      "format", po::value(&o.format)->default_value("table"), "output format: table, json or csv")(
      "out", po::value(&o.out), "directory for result.json, result.csv and schedule.pb")(
      "fidelity", po::value(&o.fidelity)->default_value("packet"),
      "packet (default), chunk (one packet per chunk: fast) or analytical (no simulation: the prediction)");
  // clang-format on
  if (with_seed) {
    // clang-format off
    d.add_options()("seed", po::value<std::string>(), "experiment seed (overrides `seed` in the config)");
    // clang-format on
  }
  return d;
}

// "--set KEY VALUE" (a space for the '=') would bind KEY alone and take VALUE
// for a positional argument, so the error would be about the wrong thing.
void check_set_assignments(int argc, const char* const* argv) {
  for (int i = 0; i + 1 < argc; ++i) {
    if (std::string_view(argv[i]) != "--set") continue;
    const std::string key = argv[i + 1];
    if (key.find('=') != std::string::npos) continue;
    std::string got = "--set " + key;
    if (i + 2 < argc && !std::string_view(argv[i + 2]).starts_with("-")) got += std::string(" ") + argv[i + 2];
    throw po::error(got + ": --set takes KEY=VALUE, joined by '=' (write --set " + key + "=" +
                    (i + 2 < argc && !std::string_view(argv[i + 2]).starts_with("-") ? argv[i + 2] : "VALUE") + ")");
  }
}

// Parses a verb's options plus its positional arguments, each bound to a string.
po::variables_map parse(int argc, const char* const* argv, const po::options_description& visible,
                        const std::vector<std::pair<const char*, std::string*>>& positionals = {}) {
  check_set_assignments(argc, argv);
  po::options_description hidden;
  po::positional_options_description positional;
  for (const auto& [name, target] : positionals) {
    // clang-format off
    hidden.add_options()(name, po::value(target));
    // clang-format on
    positional.add(name, 1);
  }
  po::options_description all;
  all.add(visible).add(hidden);
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
  po::notify(vm);
  return vm;
}

// Where the command runs, for command.txt's `cd`; empty when the OS cannot say (a removed folder).
std::string working_directory() {
  std::error_code failed;
  const std::filesystem::path here = std::filesystem::current_path(failed);
  return failed ? std::string() : here.string();
}

// Progress of a long synthesis or simulation, shown only where stderr is a terminal.
TerminalProgress terminal_progress(std::ostream& err) {
  return TerminalProgress(err, &err == &std::cerr && ::isatty(2) == 1);
}

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
  if (vm.count("help")) {
    out << (replay ? "usage: photonsim replay FILE.pb CONFIG.yaml [options]\n"
                     "Verifies a saved schedule, then replays it on the fabric of CONFIG.yaml from the schedule's\n"
                     "own initial topology, predicted again for that fabric by the schedule's cost model.\n\n"
                   : "usage: photonsim run CONFIG.yaml [options]\n"
                     "Synthesizes the configured schedule, simulates it and prints measured vs predicted time.\n\n")
        << d;
    return 0;
  }
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
  if (vm.count("help")) {
    out << "usage: photonsim synth CONFIG.yaml --out FILE.pb|FILE.xml\n"
           "       photonsim synth CONFIG.yaml --out PREFIX --format chakra\n"
           "Synthesizes the schedule, writes it (FILE.xml: as an MSCCL XML algorithm; --format chakra: as Chakra\n"
           "execution traces PREFIX.0.et, PREFIX.1.et, ..., its reconfigurations as compute nodes marked\n"
           "photonsim_reconfiguration, the schedule itself in PREFIX.0.et's metadata, so that photonsim runs the\n"
           "traces back as the schedule), and prints its prediction.\n\n"
        << d;
    return 0;
  }
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
  if (vm.count("help")) {
    out << "usage: photonsim topo --type NAME --gpus N [options]\n"
           "Builds a topology and prints its degree, diameter, average hop distance and, with --demand, theta.\n\n"
        << d;
    return 0;
  }
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

int verb_plan(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget) {
  std::vector<std::string> sets;
  std::string config_path, format = "table";
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")("set", po::value(&sets)->composing(), "override a config key (repeatable)")(
      "format", po::value(&format), "table | json");
  // clang-format on
  po::variables_map vm = parse(argc, argv, d, {{"config", &config_path}});
  if (vm.count("help")) {
    out << "usage: photonsim plan CONFIG.yaml [options]\n"
           "Runs every planner on the configured algorithm and ranks them by predicted time.\n\n"
        << d;
    return 0;
  }
  if (config_path.empty()) throw po::error("plan needs CONFIG.yaml");
  check_format(format, {"table", "json"});
  const ExperimentPipeline pipeline(&budget);
  const ExperimentConfig config = pipeline.load(config_path, sets);
  ExperimentPipeline::require_one_collective(config, "plan");
  const PlanReport report = [&] {
    TerminalProgress progress = terminal_progress(err);
    return pipeline.plan(config, &progress);
  }();
  out << (format == "json" ? report.json() : report.table());
  return 0;
}

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
  if (vm.count("help")) {
    out << "usage: photonsim physical CONFIG.yaml [--step K] [--format table|json] [--set key=value]...\n"
           "Synthesizes the schedule and shows how fabric.physical realises each of its configurations:\n"
           "circuits routed through the MZI meshes (PCCL Algorithm 3) and across the server grid's fibers\n"
           "(Algorithm 4), fibers per server edge, longest path, worst loss, solver time.\n\n"
        << d;
    return 0;
  }
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
  if (vm.count("help")) {
    out << "usage: photonsim bound --gpus N --ports K [--reconfigs D] [options]\n"
           "Prints the all-to-all paper's lower bound (Theorem 1) on the summed round hop counts, in units of T.\n\n"
        << d;
    return 0;
  }
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
  const BoundReport report = BoundReport::of(gpus, ports, reconfigs.has_value(), compare,
                                             reconfiguration_bound_table(gpus, ports, reconfigs, compare, seed_value(vm)));
  out << (format == "json" ? report.json() : format == "csv" ? report.csv() : report.table());
  return 0;
}

int verb_sweep(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget,
               const std::vector<std::string>& command) {
  std::string sweep_path, out_dir;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")("jobs", po::value(&jobs), "points run at once (default: all cores)")(
      "out", po::value(&out_dir), "directory for results.csv (default: results/<sweep file name>)")(
      "resume", "skip points already in results.csv");
  // clang-format on
  po::variables_map vm = parse(argc, argv, d, {{"sweep", &sweep_path}});
  if (vm.count("help")) {
    out << "usage: photonsim sweep SWEEP.yaml [options]\n"
           "Runs every point of a sweep (base: CONFIG, grid: and zip: of dotted keys) and writes one CSV row per "
           "point.\n\n"
        << d;
    return 0;
  }
  if (sweep_path.empty()) throw po::error("sweep needs SWEEP.yaml");
  if (jobs < 1) throw po::error("--jobs: must be at least 1, got " + std::to_string(jobs));
  const SweepSpec spec = load_sweep(sweep_path);
  for (const std::string& note : spec.notes) err << "sweep: " << note << "\n";
  SweepOptions options;
  options.jobs = jobs;
  options.out_dir = out_dir.empty() ? "results/" + std::filesystem::path(sweep_path).stem().string() : out_dir;
  options.resume = vm.count("resume") > 0;
  options.progress = ::isatty(2) == 1;
  options.memory = budget;
  const SweepOutcome o = run_sweep(spec, options, err);
  if (!o.report) return 0;
  // The sweep file as written, its base named by an absolute path so that it reruns from the folder.
  write_provenance(
      Provenance{command, sweep_path, sweep_text_with_absolute_base(read_input_file(sweep_path, kSweepInput), spec),
                 working_directory()},
      options.out_dir);
  out << "sweep: " << o.points << " points, " << o.ran << " ran, " << o.skipped << " already done, " << o.failed
      << " failed; " << options.out_dir << "/results.csv\n";
  if (o.failed > 0)
    throw Error(std::to_string(o.failed) + " point(s) failed (see above); rerun with --resume after fixing them");
  return 0;
}

int verb_verify(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget) {
  std::vector<std::string> sets;
  std::string input;
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")("set", po::value(&sets)->composing(),
                                                 "override a config key (repeatable; configs only)");
  // clang-format on
  po::variables_map vm = parse(argc, argv, d, {{"input", &input}});
  if (vm.count("help")) {
    out << "usage: photonsim verify CONFIG.yaml|FILE.pb\n"
           "Replays the schedule block by block and proves the collective's post-condition, or names\n"
           "the first violation (step, node, block). Exit 0 when proven, 1 otherwise.\n\n"
        << d;
    return 0;
  }
  if (input.empty()) throw po::error("verify needs CONFIG.yaml or FILE.pb");
  const bool is_config = input.size() > 5 && (input.ends_with(".yaml") || input.ends_with(".yml"));
  const ExperimentPipeline pipeline(&budget);
  Schedule schedule = [&] {
    if (!is_config) return read_schedule(input);
    const ExperimentConfig config = pipeline.load(input, sets);
    ExperimentPipeline::require_one_collective(config, "verify");
    TerminalProgress progress = terminal_progress(err);
    return pipeline.synthesize(config, &progress);
  }();
  pipeline.check_verifier_budget(schedule, input);
  const Verification v = verify_schedule(schedule);
  const std::string what = std::string(to_string(schedule.collective())) + " / " + printable(schedule.algorithm()) +
                           " on " + std::to_string(schedule.gpus()) + " GPUs (" +
                           std::to_string(schedule.steps().size()) + " steps, " + std::to_string(v.transfers) +
                           " transfers, " + std::to_string(schedule.blocks()) + " blocks)";
  if (!v.ok()) {
    out << "violation: " << what << ": " << v.violation->describe() << "\n";
    return 1;
  }
  if (v.not_proven) {
    std::cerr << "photonsim: warning: " << input << ": not verified: " << *v.not_proven << "\n";
    out << "not verified: " << what << ": " << *v.not_proven << "\n";
    return 0;
  }
  out << "verified: " << what << "\n";
  return 0;
}

std::string collective_names(const std::vector<Collective>& cs) {
  std::string out;
  for (Collective c : cs) out += (out.empty() ? "" : ",") + std::string(to_string(c));
  return out;
}

int verb_list(std::ostream& out) {
  const ExperimentPipeline pipeline(nullptr);
  const SynthesizerRegistry& registry = pipeline.registry();
  const auto parameters = [](const std::vector<ParameterSpec>& specs) {
    std::string text;
    for (const ParameterSpec& p : specs) text += "\n      " + p.describe();
    return text;
  };
  out << "algorithms (synthesis.algorithm):\n";
  for (const auto& a : registry.algorithms()) {
    out << "  " << a.info.name << "  [" << collective_names(a.info.collectives) << "; default planner "
        << a.info.default_planner << "; " << a.info.sizes << "]\n      " << a.info.description
        << parameters(a.info.parameters) << "\n";
  }
  out << "planners (synthesis.planner):\n";
  for (const PlannerInfo& p : registry.planner_infos()) {
    out << "  " << p.name << "\n      " << p.description << parameters(p.parameters) << "\n";
  }
  out << "topologies (synthesis.topology, synthesis.static_topology):\n";
  for (const auto& t : registry.topologies().entries()) {
    out << "  " << t.name << "  [" << t.sizes << "]\n      " << t.description << parameters(t.parameters) << "\n";
  }
  out << "reconfiguration models (fabric.reconfig_model):\n";
  for (const ReconfigurationModelInfo& m : reconfiguration_models()) {
    out << "  " << m.name << "\n      " << m.description << "\n";
    for (const ReconfigurationParameter& p : m.parameters)
      out << "      " << p.name << ": " << p.kind << ", default " << p.default_value << " - " << p.doc << "\n";
  }
  // Every enum's names, range and default: from the schema alone.
  out << "config keys (photonsim list --markdown: the table of docs/config.md):\n" << ConfigSchema::builtin().text();
  return 0;
}

}  // namespace

namespace {

int dispatch(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  const int code = dispatch(argc, argv, out, err);
  // Output lost on a full disk or a closed pipe is a failed run, not a quiet success.
  errno = 0;
  out.flush();
  if (!out) {
    const int why = errno;
    err << "photonsim: error: cannot write to standard output: "
        << (why != 0 ? std::strerror(why) : "the stream failed") << "\n";
    return code == 0 ? 1 : code;
  }
  return code;
}

namespace {

int dispatch(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  std::string memory_limit;                                   // for the bad_alloc message
  const std::vector<std::string> command(argv, argv + argc);  // as typed, for the provenance an --out keeps
  if (argc < 2) {
    err << kUsage;
    return 2;
  }
  const std::string verb = argv[1];
  try {
    if (verb == "--help" || verb == "-h" || verb == "help") {
      out << kUsage;
      return 0;
    }
    if (verb == "--version") {
      out << "photonsim " << PHOTONSIM_VERSION << (built_with_mpi() ? " (MPI)" : "") << "\n"
          << "git revision " << PHOTONSIM_GIT_REVISION << ", built in " << PHOTONSIM_BUILD_DIR << " from "
          << PHOTONSIM_BUILT_FROM << "\n";
      return 0;
    }
    // --max-memory applies to every verb, so it is taken out before the verb parses.
    std::vector<const char*> args(argv, argv + argc);
    std::optional<std::string> max_memory;
    for (size_t i = 2; i < args.size();) {
      const std::string a = args[i];
      if (a == "--max-memory" || a.starts_with("--max-memory=")) {
        if (a == "--max-memory" && i + 1 >= args.size()) throw po::error("--max-memory needs a SIZE, e.g. 8GiB");
        max_memory = a == "--max-memory" ? std::string(args[i + 1]) : a.substr(std::string("--max-memory=").size());
        args.erase(args.begin() + static_cast<long>(i),
                   args.begin() + static_cast<long>(i) + (a == "--max-memory" ? 2 : 1));
      } else {
        ++i;
      }
    }
    const MemoryBudget budget = [&] {
      try {
        return MemoryBudget::from_option(max_memory);
      } catch (const Error& e) {
        throw po::error(e.what());
      }
    }();
    budget.enforce();
    memory_limit = budget.describe();
    argc = static_cast<int>(args.size());
    argv = args.data();
    if (verb == "run") return verb_run(argc - 1, argv + 1, out, err, false, budget, command);
    if (verb == "replay") return verb_run(argc - 1, argv + 1, out, err, true, budget, command);
    if (verb == "synth") return verb_synth(argc - 1, argv + 1, out, err, budget);
    if (verb == "list") {
      if (argc == 3 && std::string_view(argv[2]) == "--markdown") {
        out << ConfigSchema::builtin().markdown();
        return 0;
      }
      if (argc > 2) throw Error(std::string("list: unknown argument '") + argv[2] + "' (valid: --markdown)");
      return verb_list(out);
    }
    if (verb == "topo") return verb_topo(argc - 1, argv + 1, out, budget);
    if (verb == "verify") return verb_verify(argc - 1, argv + 1, out, err, budget);
    if (verb == "plan") return verb_plan(argc - 1, argv + 1, out, err, budget);
    if (verb == "bound") return verb_bound(argc - 1, argv + 1, out, err, budget);
    if (verb == "physical") return verb_physical(argc - 1, argv + 1, out, err, budget);
    if (verb == "sweep") return verb_sweep(argc - 1, argv + 1, out, err, budget, command);
    err << "photonsim: unknown command " << one_line(quoted(verb))
        << " (valid: run, synth, replay, plan, list, topo, verify, bound, sweep, physical)\n";
    return 2;
  } catch (const po::error& e) {
    const std::string shown = one_line(verb.size() > 40 ? verb.substr(0, 40) + "..." : verb);
    err << "photonsim " << shown << ": " << one_line(e.what()) << " (see photonsim " << shown << " --help)\n";
    return 2;
  } catch (const Error& e) {
    err << "photonsim: error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    err << "photonsim: error: out of memory: the input needs more than the memory limit "
        << (memory_limit.empty() ? std::string("of this machine") : memory_limit)
        << "; the GPU count (fabric.gpus, --gpus) and workload.message set the size\n";
    return 1;
  } catch (const std::filesystem::filesystem_error& e) {
    // A path the OS rejects (too long, a loop of links) is the user's to fix.
    err << "photonsim: error: " << one_line(e.what()) << "\n";
    return 1;
  } catch (const std::exception& e) {
    err << "photonsim: internal error: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace

}  // namespace photonsim
