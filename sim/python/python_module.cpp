// Contract: photonsim._photonsim, the C++ under the Python package
// (python/photonsim/): the pipeline every CLI verb takes (sim/app/), called
// in process. A config is a file path, or YAML/JSON text with the path it is
// read as (relative files resolve from that path's folder). Runs return the
// report's JSON and CSV exactly as `photonsim run --format json|csv` prints
// them; the Python layer parses them. Every photonsim::Error becomes a
// photonsim.PhotonsimError carrying its one-line message; the GIL is
// released while C++ runs. The memory budget (--max-memory, else 3/4 of
// physical memory) checks estimates but never caps the interpreter's
// address space.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/atomic_file.h"
#include "core/build_info.h"
#include "core/error.h"
#include "core/memory_budget.h"
#include "core/version.h"
#include "schedules/model/schedule_io.h"
#include "schedules/msccl/msccl_writer.h"
#include "schedules/verify/block_verifier.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/app/output_writer.h"
#include "sim/cli/terminal_progress.h"
#include "sim/config/config_loader.h"
#include "sim/engine/fidelity.h"
#include "sim/interop/chakra_writer.h"
#include "sim/reports/provenance.h"
#include "sim/sweep/sweep_runner.h"
#include "sim/sweep/sweep_spec.h"

namespace py = pybind11;

namespace photonsim {
namespace {

struct ConfigSource {
  std::optional<std::string> path;
  std::optional<std::string> text;
  std::string source;  // what text is read as (messages, relative paths)
  std::vector<std::string> sets;
  std::optional<std::string> max_memory;
};

ConfigSource config_source(const std::optional<std::string>& path, const std::optional<std::string>& text,
                           const std::string& source, const std::vector<std::string>& sets,
                           const std::optional<std::string>& max_memory) {
  if (path.has_value() == text.has_value()) throw Error("give a config path or config text, not both or neither");
  return ConfigSource{path, text, source, sets, max_memory};
}

ExperimentConfig load(const ConfigSource& c, const ExperimentPipeline& pipeline, const MemoryBudget& budget) {
  if (c.path) return pipeline.load(*c.path, c.sets);
  return load_config_from_string(*c.text, c.source, c.sets, &budget);
}

// Progress lines (a sweep's bar, a long run's status), written to a Python
// callable with the GIL held; None writes nothing.
class CallbackBuffer : public std::streambuf {
 public:
  explicit CallbackBuffer(py::object callback) : callback_(std::move(callback)) {}
  ~CallbackBuffer() override { sync(); }

 protected:
  int overflow(int c) override {
    if (c != EOF) text_ += static_cast<char>(c);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    text_.append(s, static_cast<size_t>(n));
    return n;
  }
  int sync() override {
    if (text_.empty()) return 0;
    py::gil_scoped_acquire gil;
    if (!callback_.is_none()) callback_(text_);
    text_.clear();
    return 0;
  }

 private:
  py::object callback_;
  std::string text_;
};

struct RunAnswer {
  std::string kind, json, csv;
  std::vector<std::string> warnings;
};

RunAnswer run(const ConfigSource& c, const std::string& fidelity_name, std::optional<uint64_t> seed,
              const Schedule* replayed, bool verify, RunProgress* progress) {
  const MemoryBudget budget = MemoryBudget::from_option(c.max_memory);
  const ExperimentPipeline pipeline(&budget);
  const Fidelity fidelity = parse_fidelity(fidelity_name);
  ExperimentConfig config = load(c, pipeline, budget);
  if (seed) config.seed = *seed;
  RunAnswer answer;
  answer.warnings = config.warnings;
  if ((config.graph || config.imported_schedule) && replayed)
    throw Error(config.source + ": workload.graph: replay takes one schedule; run the graph instead");
  if (config.graph) {
    const GraphReport report = pipeline.run_graph(config, fidelity, nullptr, progress);
    answer.kind = "graph";
    answer.json = report.json();
    answer.csv = report.csv();
    return answer;
  }
  const RunReport report = replayed ? pipeline.replay(*replayed, "the schedule", config, verify, fidelity, progress)
                                    : pipeline.run(config, fidelity, progress);
  if (report.schedule.custom()) {
    answer.warnings.push_back(
        "the schedule is a custom collective (MSCCL coll=\"custom\"): it has no post-condition, so nothing proves it "
        "moves the data it should");
  }
  answer.kind = "run";
  answer.json = report.json();
  answer.csv = report.csv();
  return answer;
}

// work(progress) from Python: the GIL released while it works, its progress
// line written to `log` (a Python callable, or None) once it has run for
// `show_after_s` seconds.
template <class Work>
auto with_progress(py::object log, double show_after_s, Work&& work) {
  if (!(show_after_s >= 0)) throw Error("progress: the seconds before a status line must be >= 0");
  const auto show_after = std::chrono::milliseconds(static_cast<int64_t>(std::min(show_after_s, 1e9) * 1000));
  CallbackBuffer buffer(std::move(log));  // made and destroyed with the GIL held
  std::optional<decltype(work(static_cast<RunProgress*>(nullptr)))> answer;
  {
    py::gil_scoped_release release;
    std::ostream stream(&buffer);
    TerminalProgress progress(stream, true, show_after);
    answer.emplace(work(&progress));
  }
  return std::move(*answer);
}

// run() from Python, its answer as a dict.
py::dict run_from_python(const ConfigSource& c, const std::string& fidelity, std::optional<uint64_t> seed,
                         const Schedule* replayed, bool verify, py::object log, double show_after_s) {
  const RunAnswer a = with_progress(std::move(log), show_after_s, [&](RunProgress* progress) {
    return run(c, fidelity, seed, replayed, verify, progress);
  });
  py::dict d;
  d["kind"] = a.kind;
  d["json"] = a.json;
  d["csv"] = a.csv;
  d["warnings"] = a.warnings;
  return d;
}

Schedule synthesize(const ConfigSource& c, WorkProgress* progress) {
  const MemoryBudget budget = MemoryBudget::from_option(c.max_memory);
  const ExperimentPipeline pipeline(&budget);
  const ExperimentConfig config = load(c, pipeline, budget);
  ExperimentPipeline::require_one_collective(config, "synth");
  return pipeline.synthesize(config, progress);
}

std::string plan(const ConfigSource& c, WorkProgress* progress) {
  const MemoryBudget budget = MemoryBudget::from_option(c.max_memory);
  const ExperimentPipeline pipeline(&budget);
  const ExperimentConfig config = load(c, pipeline, budget);
  ExperimentPipeline::require_one_collective(config, "plan");
  return pipeline.plan(config, progress).json();
}

// The schedule as plain Python values (what the .pbtxt holds).
py::dict schedule_dict(const Schedule& s) {
  py::dict d;
  d["collective"] = to_string(s.collective());
  d["algorithm"] = s.algorithm();
  d["planner"] = s.planner();
  d["gpus"] = s.gpus();
  d["message_bytes"] = s.message().count();
  d["blocks"] = s.blocks();
  d["block_parts"] = s.block_parts();
  d["custom"] = s.custom();
  d["root"] = s.root();
  d["initial_topology"] = s.initial_topology();
  d["reconfigurations"] = s.reconfigurations();
  py::list topologies;
  for (const Topology& t : s.topologies()) {
    py::dict td;
    td["name"] = t.name();
    py::list edges;
    for (const Edge& e : t.edges()) edges.append(py::make_tuple(e.first, e.second));
    td["edges"] = edges;
    topologies.append(td);
  }
  d["topologies"] = topologies;
  py::list steps;
  for (size_t i = 0; i < s.steps().size(); ++i) {
    const Step& step = s.steps()[i];
    py::dict sd;
    sd["topology"] = step.topology;
    sd["reconfigures"] = s.reconfigures_before(i);
    py::list transfers;
    for (const Transfer& t : step.transfers) {
      py::dict x;
      x["src"] = t.src;
      x["dst"] = t.dst;
      x["bytes"] = t.bytes.count();
      x["blocks"] = t.blocks;
      x["op"] = t.op == TransferOp::reduce ? "reduce" : "copy";
      x["path"] = t.path;
      transfers.append(x);
    }
    sd["transfers"] = transfers;
    steps.append(sd);
  }
  d["steps"] = steps;
  const Prediction& p = s.prediction();
  py::dict pd;
  pd["model"] = p.model;
  pd["total_ps"] = p.total().picoseconds();
  py::list ps;
  for (const StepPrediction& sp : p.steps) {
    py::dict x;
    x["reconfiguration_ps"] = sp.reconfiguration.picoseconds();
    x["startup_ps"] = sp.startup.picoseconds();
    x["propagation_ps"] = sp.propagation.picoseconds();
    x["transmission_ps"] = sp.transmission.picoseconds();
    x["total_ps"] = sp.total().picoseconds();
    ps.append(x);
  }
  pd["steps"] = ps;
  d["prediction"] = pd;
  return d;
}

// Writes the schedule as `photonsim synth --out` does: .pb binary,
// .pbtxt/.textproto/.txtpb text, .xml MSCCL; format "chakra": PATH.N.et.
std::string save_schedule(const Schedule& s, const std::string& path, const std::string& format) {
  if (!format.empty() && format != "chakra")
    throw Error("save: format '" + format +
                "' is not one photonsim writes (valid: chakra, or none: by the path's extension)");
  return write_schedule_files(s, path, format == "chakra");
}

std::string verify(const Schedule& s) {
  const Verification v = verify_schedule(s);
  if (v.violation) throw Error("not verified: " + v.violation->describe());
  return v.not_proven ? "not verified: " + *v.not_proven : std::string("verified");
}

py::dict sweep(const std::string& sweep_text, const std::string& source, const std::string& directory,
               const std::string& out_dir, int jobs, bool resume, const std::optional<std::string>& max_memory,
               py::object log) {
  const SweepSpec spec = load_sweep_from_string(sweep_text, source, directory);
  SweepOptions options;
  options.jobs = jobs;
  options.out_dir = out_dir;
  options.resume = resume;
  options.progress = true;
  options.memory = MemoryBudget::from_option(max_memory);
  options.in_process = true;  // a fork of an interpreter with pandas costs more than a small point
  CallbackBuffer buffer(std::move(log));
  std::ostream stream(&buffer);
  SweepOutcome outcome;
  {
    py::gil_scoped_release release;
    outcome = run_sweep(spec, options, stream);
    stream.flush();
  }
  py::dict d;
  d["points"] = outcome.points;
  d["skipped"] = outcome.skipped;
  d["ran"] = outcome.ran;
  d["failed"] = outcome.failed;
  py::list failures;
  const std::vector<SweepPoint> points = spec.points();
  for (const FailedPoint& f : outcome.failures) {
    py::dict values;  // the point's swept values, as results.csv writes them
    for (const auto& [key, value] : points.at(f.point).values) values[py::str(key)] = value;
    failures.append(py::make_tuple(f.point, f.reason, values));
  }
  d["failures"] = failures;
  return d;
}

}  // namespace
}  // namespace photonsim

PYBIND11_MODULE(_photonsim, m) {
  using namespace photonsim;
  m.doc() = "photonsim's C++ pipeline (use the photonsim package, not this module)";
  py::register_exception<Error>(m, "PhotonsimError", PyExc_ValueError);
  m.def("version", []() { return std::string(PHOTONSIM_VERSION); });
  m.def("build_info", []() {
    py::dict d;  // what `photonsim --version` names: the version, the git revision, where it was built
    d["version"] = std::string(PHOTONSIM_VERSION);
    d["git_revision"] = std::string(PHOTONSIM_GIT_REVISION);
    d["build_dir"] = std::string(PHOTONSIM_BUILD_DIR);
    d["source_dir"] = std::string(PHOTONSIM_BUILT_FROM);
    return d;
  });

  py::class_<Schedule>(m, "Schedule")
      .def("to_dict", &schedule_dict)
      .def("save", &save_schedule, py::arg("path"), py::arg("format") = "")
      .def("verify", &verify);
  m.def("load_schedule", [](const std::string& path) {
    py::gil_scoped_release release;
    return read_schedule(path);
  });

  m.def(
      "run",
      [](std::optional<std::string> path, std::optional<std::string> text, std::string source,
         std::vector<std::string> sets, std::string fidelity, std::optional<uint64_t> seed,
         std::optional<std::string> max_memory, py::object log, double show_after_s) {
        return run_from_python(config_source(path, text, source, sets, max_memory), fidelity, seed, nullptr, true,
                               std::move(log), show_after_s);
      },
      py::arg("path"), py::arg("text"), py::arg("source"), py::arg("sets"), py::arg("fidelity"), py::arg("seed"),
      py::arg("max_memory"), py::arg("log") = py::none(), py::arg("show_after_s") = 3.0);
  m.def(
      "replay",
      [](const Schedule& schedule, std::optional<std::string> path, std::optional<std::string> text, std::string source,
         std::vector<std::string> sets, std::string fidelity, bool verify_first, std::optional<std::string> max_memory,
         py::object log, double show_after_s) {
        return run_from_python(config_source(path, text, source, sets, max_memory), fidelity, std::nullopt, &schedule,
                               verify_first, std::move(log), show_after_s);
      },
      py::arg("schedule"), py::arg("path"), py::arg("text"), py::arg("source"), py::arg("sets"), py::arg("fidelity"),
      py::arg("verify"), py::arg("max_memory"), py::arg("log") = py::none(), py::arg("show_after_s") = 3.0);
  m.def(
      "synthesize",
      [](std::optional<std::string> path, std::optional<std::string> text, std::string source,
         std::vector<std::string> sets, std::optional<std::string> max_memory, py::object log, double show_after_s) {
        const ConfigSource c = config_source(path, text, source, sets, max_memory);
        return with_progress(std::move(log), show_after_s,
                             [&](RunProgress* progress) { return synthesize(c, progress); });
      },
      py::arg("path"), py::arg("text"), py::arg("source"), py::arg("sets"), py::arg("max_memory"),
      py::arg("log") = py::none(), py::arg("show_after_s") = 3.0);
  m.def(
      "plan",
      [](std::optional<std::string> path, std::optional<std::string> text, std::string source,
         std::vector<std::string> sets, std::optional<std::string> max_memory, py::object log, double show_after_s) {
        const ConfigSource c = config_source(path, text, source, sets, max_memory);
        return with_progress(std::move(log), show_after_s, [&](RunProgress* progress) { return plan(c, progress); });
      },
      py::arg("path"), py::arg("text"), py::arg("source"), py::arg("sets"), py::arg("max_memory"),
      py::arg("log") = py::none(), py::arg("show_after_s") = 3.0);
  m.def(
      "write_file", [](const std::string& path, const std::string& text) { write_file_atomically(path, text); },
      py::arg("path"), py::arg("text"));
  m.def(
      "write_provenance",
      [](std::vector<std::string> command, std::string config_path, std::string resolved, std::string directory,
         std::string out_dir) {
        write_provenance(
            Provenance{std::move(command), std::move(config_path), std::move(resolved), std::move(directory)}, out_dir);
      },
      py::arg("command"), py::arg("config_path"), py::arg("resolved_config"), py::arg("directory"), py::arg("out_dir"));
  m.def(
      "resolved_config",
      [](std::string text, std::string source) {
        // The config as an --out folder keeps it (config.yaml): its file names absolute.
        const MemoryBudget budget = MemoryBudget::from_option(std::nullopt);
        return load_config_from_string(text, source, {}, &budget).resolved_yaml;
      },
      py::arg("text"), py::arg("source"));
  m.def("sweep", &sweep, py::arg("sweep_text"), py::arg("source"), py::arg("directory"), py::arg("out_dir"),
        py::arg("jobs"), py::arg("resume"), py::arg("max_memory"), py::arg("log"));
}
