// Until an engine simulates fabric.failures (issue 55), a run of a config
// with any failure stops at the one gate every run passes
// (check_engine_names): one collective, a replayed schedule, a task graph, a
// sweep point and every fidelity, analytical included; a config without
// failures (or with only their detection and policy) runs as before.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/app/experiment_runner.h"
#include "sim/config/config_loader.h"

namespace photonsim {
namespace {

constexpr const char* kRefusedRing =
    "fabric:\n"                  // 1
    "  gpus: 4\n"                // 2
    "  bandwidth: 800Gbps\n"     // 3
    "  latency: 0ns\n"           // 4
    "workload:\n"                // 5
    "  collective: allgather\n"  // 6
    "  message: 1000B\n"         // 7
    "synthesis:\n"               // 8
    "  algorithm: ring\n"        // 9
    "  topology: ring\n";        // 10

constexpr const char* kRefusalText =
    " read and checked, but no engine simulates failures yet (issue 55): leave out fabric.failures and "
    "fabric.random_failures to run the healthy fabric (photonsim verify CONFIG checks it without a run)";

ExperimentConfig refused_ring(const std::vector<std::string>& sets) {
  return load_config_from_string(kRefusedRing, "ring.yaml", sets);
}

template <class Body>
std::string refusal_of(Body&& body) {
  try {
    body();
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

TEST(FailureRefusal, EveryRunOfAFailingFabricStopsNamingTheKey) {
  const ExperimentPipeline pipeline(nullptr);
  const ExperimentConfig one = refused_ring({"fabric.failures=[{kind: port, gpu: 3, port: 0, at: 1us}]"});
  const std::string expected =
      "--set fabric.failures=[{kind: port, gpu: 3, port: 0, at: 1us}]: fabric.failures: 1 failure is" +
      std::string(kRefusalText);
  for (const Fidelity fidelity : {Fidelity::packet, Fidelity::chunk, Fidelity::analytical})
    EXPECT_EQ(refusal_of([&] { pipeline.run(one, fidelity); }), expected);
  EXPECT_EQ(refusal_of([&] { pipeline.result_csv(one); }), expected);
  const Schedule schedule = pipeline.synthesize(one);  // planning is not refused
  EXPECT_EQ(refusal_of([&] { pipeline.replay(schedule, "ring.pb", one, true); }), expected);

  const ExperimentConfig graph = load_config_from_string(
      "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 0ns,\n"                               // 1
      "  failures: [{kind: straggler, gpu: 1, slowdown: 2}, {kind: switch, switch: 0}]}\n"  // 2
      "workload: {graph: [{name: c, type: compute, gpus: [0, 1], duration: 1us}]}\n"
      "synthesis: {algorithm: ring, topology: ring}\n",
      "graph.yaml");
  EXPECT_EQ(refusal_of([&] { pipeline.run_graph(graph); }),
            "graph.yaml:2: fabric.failures: 2 failures are" + std::string(kRefusalText));
  EXPECT_EQ(refusal_of([&] { pipeline.result_csv(graph); }), refusal_of([&] { pipeline.run_graph(graph); }));

  const ExperimentConfig random = refused_ring({"fabric.random_failures.port_mtbf=10h"});
  EXPECT_EQ(refusal_of([&] { pipeline.run(random); }),
            "--set fabric.random_failures.port_mtbf=10h: fabric.random_failures: random failures are" +
                std::string(kRefusalText));
}

TEST(FailureRefusal, AFabricThatDoesNotFailRunsAsBefore) {
  const ExperimentPipeline pipeline(nullptr);
  const RunReport plain = pipeline.run(refused_ring({}));
  const RunReport with_keys =
      pipeline.run(refused_ring({"fabric.failures=[]", "fabric.failure_detection=1us", "fabric.on_failure=wait"}));
  EXPECT_EQ(with_keys.result.completion, plain.result.completion);
  EXPECT_EQ(with_keys.result.events, plain.result.events);
  EXPECT_EQ(with_keys.result.steps.size(), plain.result.steps.size());
  EXPECT_NO_THROW(refuse_unsimulated_failures(refused_ring({})));
}

}  // namespace
}  // namespace photonsim
