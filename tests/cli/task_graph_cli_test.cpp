// photonsim run on a task-graph config end to end: the shipped transformer
// iterations run, deterministically, writing graph.json and nodes.csv whole
// and a valid trace, with the analytical prediction beside; commands that
// take one collective refuse a graph in one line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/hostile_run.h"
#include "tests/support/json_value.h"
#include "tests/support/shipped_configs.h"
#include "tests/support/trace_checks.h"

namespace photonsim_test {
namespace {

using photonsim::testing_support::JsonValue;
using photonsim::testing_support::parse_json;
using photonsim::testing_support::validate_trace;

class TaskGraphCli : public Hostile {};

TEST_F(TaskGraphCli, ShippedTrainingIterationsRunDeterministically) {
  for (const fs::path& config : photonsim::testing_support::shipped_task_graph_configs()) {
    const HostileOutcome a = run({"run", config.string(), "--format", "json", "--out", (dir_ / "out").string()});
    ASSERT_EQ(a.code, 0) << config << ": " << a.err;
    const HostileOutcome b = run({"run", config.string(), "--format", "json"});
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(without_timings(a.out), without_timings(b.out)) << config;
    const JsonValue doc = parse_json(a.out);
    const int64_t iteration = doc.at("iteration_ps").integer();
    EXPECT_GT(iteration, 0);
    // The critical path's parts add up to no more than the iteration.
    EXPECT_LE(doc.at("critical_compute_ps").integer() + doc.at("critical_communication_ps").integer() +
                  doc.at("critical_port_wait_ps").integer(),
              iteration);
    EXPECT_EQ(without_timings(slurp(dir_ / "out" / "graph.json")), without_timings(a.out));
    // The analytical fidelity is the packet run's prediction: every node its
    // predicted time under the same rules.
    const HostileOutcome analytical = run({"run", config.string(), "--format", "json", "--fidelity", "analytical"});
    ASSERT_EQ(analytical.code, 0) << analytical.err;
    const JsonValue predicted = parse_json(analytical.out);
    EXPECT_EQ(predicted.at("iteration_ps").integer(), doc.at("predicted_iteration_ps").integer());
    EXPECT_EQ(predicted.at("error_pct").text, "0.0000");
    const std::string csv = slurp(dir_ / "out" / "nodes.csv");
    EXPECT_EQ(csv.rfind("node,kind,gpus,released_ps,start_ps,end_ps,compute_ps,communication_ps,port_wait_ps,", 0), 0u);
    EXPECT_EQ(static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n')), doc.at("nodes").items.size() + 1);
  }
}

TEST_F(TaskGraphCli, CommandsThatTakeOneCollectiveRefuseAGraph) {
  const std::string config = photonsim::testing_support::shipped_task_graph_configs().front().string();
  for (const char* verb : {"synth", "plan", "verify"}) {
    std::vector<std::string> args{verb, config};
    if (std::string(verb) == "synth") args.insert(args.end(), {"--out", (dir_ / "x.pb").string()});
    expect_refused(run(args), verb, {"workload.graph", std::string("photonsim ") + verb, "photonsim run"});
  }
  expect_refused(run({"replay", (dir_ / "any.pb").string(), config}), "replay", {"workload.graph", "replay"});
}

// The iteration's trace is a valid trace-event document: compute,
// communication and port tracks per GPU, the critical path, the same results.
TEST_F(TaskGraphCli, TraceOfATrainingIterationIsValid) {
  const std::string config = photonsim::testing_support::shipped_task_graph_configs().front().string();
  const std::string trace = (dir_ / "iteration.json").string();
  const HostileOutcome traced =
      run({"run", config, "--format", "json", "--set", "fabric.preconfigure=true", "--trace", trace});
  ASSERT_EQ(traced.code, 0) << traced.err;
  const HostileOutcome plain = run({"run", config, "--format", "json", "--set", "fabric.preconfigure=true"});
  EXPECT_EQ(without_engine_counts(traced.out), without_engine_counts(plain.out));
  const JsonValue doc = parse_json(slurp(trace));
  EXPECT_EQ(validate_trace(doc), std::vector<std::string>{});
  const JsonValue result = parse_json(plain.out);
  EXPECT_EQ(doc.at("otherData").at("iteration_ps").integer(), result.at("iteration_ps").integer());
  size_t critical = 0, compute = 0, setups = 0, dark = 0, busy = 0;
  for (const JsonValue& e : doc.at("traceEvents").items) {
    if (e.at("ph").text != "X") continue;
    const std::string& cat = e.at("cat").text;
    critical += cat == "graph";
    compute += cat == "compute";
    setups += cat == "reconfiguration";
    dark += cat == "port" && e.at("name").text == "dark";
    busy += cat == "port" && e.at("name").text != "dark";
  }
  EXPECT_EQ(critical, result.at("critical_path").items.size());
  EXPECT_GT(compute, 0u);
  EXPECT_GT(setups, 0u);
  EXPECT_GT(dark, 0u);
  EXPECT_GT(busy, 0u);
}

}  // namespace
}  // namespace photonsim_test

namespace photonsim_test {
namespace {

// A sweep over a graph config: one row per point, its iteration time the
// same as photonsim run's with the same settings.
TEST_F(TaskGraphCli, SweepsRunGraphConfigs) {
  const std::string config = photonsim::testing_support::shipped_task_graph_configs().front().string();
  const fs::path sweep = dir_ / "sweep.yaml";
  {
    std::ofstream out(sweep);
    out << "base: " << config
        << "\ngrid:\n  synthesis.planner: [static, pccl]\n  fabric.reconfig_delay: [5us, 500us]\n";
  }
  const HostileOutcome s = run({"sweep", sweep.string(), "--out", (dir_ / "sw").string()});
  ASSERT_EQ(s.code, 0) << s.err;
  const std::string csv = slurp(dir_ / "sw" / "results.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << csv;
  const HostileOutcome one = run(
      {"run", config, "--format", "json", "--set", "synthesis.planner=pccl", "--set", "fabric.reconfig_delay=500us"});
  ASSERT_EQ(one.code, 0) << one.err;
  const std::string iteration = std::to_string(parse_json(one.out).at("iteration_ps").integer());
  EXPECT_NE(csv.find("\npccl,500us,"), std::string::npos) << csv;
  const size_t row = csv.find("\npccl,500us,");
  EXPECT_NE(csv.substr(row, csv.find('\n', row + 1) - row).find("," + iteration + ","), std::string::npos) << csv;
}

}  // namespace
}  // namespace photonsim_test
