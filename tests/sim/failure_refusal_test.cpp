// The one gate every run passes (check_engine_names) refuses the failures no
// engine simulates yet (random_failures; a link under cut-through;
// port, switch and flap under any on_failure but wait), naming the entry and
// where it was written, in one collective, a replayed schedule, a task
// graph, a sweep point and every fidelity, analytical included (which also
// refuses lost circuits: it moves no packets); stragglers (in task graphs),
// slow reconfigurations (in schedules), circuits that go down (under
// on_failure: wait) and switches the plan leaves out (under any policy) run, and their reports list what each entry cost. A config
// without failures (or with only their detection and policy) runs as before,
// its reports without a failures key.
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

TEST(FailureRefusal, EveryRunOfAnUnsimulatedFailureStopsNamingTheEntry) {
  const ExperimentPipeline pipeline(nullptr);
  const ExperimentConfig one =
      refused_ring({"fabric.failures=[{kind: link, gpu: 3, port: 0, bandwidth: 1Gbps}]", "fabric.router=cut_through"});
  const std::string expected =
      "--set fabric.failures=[{kind: link, gpu: 3, port: 0, bandwidth: 1Gbps}]: fabric.failures[0] (link): "
      "cut-through forwarding assumes every circuit runs at one rate (docs/model.md), and a degraded link breaks "
      "it: use fabric.router: store_and_forward with a link failure";
  for (const Fidelity fidelity : {Fidelity::packet, Fidelity::chunk, Fidelity::analytical})
    EXPECT_EQ(refusal_of([&] { pipeline.run(one, fidelity); }), expected);
  EXPECT_EQ(refusal_of([&] { pipeline.result_csv(one); }), expected);
  const Schedule schedule = pipeline.synthesize(one);  // planning is not refused
  EXPECT_EQ(refusal_of([&] { pipeline.replay(schedule, "ring.pb", one, true); }), expected);

  const ExperimentConfig graph = load_config_from_string(
      "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 0ns,\n"                               // 1
      "  failures: [{kind: straggler, gpu: 1, slowdown: 2}, {kind: switch, switch: 0, at: 1us}]}\n"  // 2
      "workload: {graph: [{name: c, type: compute, gpus: [0, 1], duration: 1us}]}\n"
      "synthesis: {algorithm: ring, topology: ring}\n",
      "graph.yaml");
  EXPECT_EQ(refusal_of([&] { pipeline.run_graph(graph); }),
            "graph.yaml:2: fabric.failures[1] (switch): fabric.on_failure: replan is not simulated yet for circuits "
            "that go down (issue 55); on_failure: wait is (the transfer resumes on its route once it is back): set "
            "fabric.on_failure: wait");
  EXPECT_EQ(refusal_of([&] { pipeline.result_csv(graph); }), refusal_of([&] { pipeline.run_graph(graph); }));

  // Lost circuits: on_failure: wait only, and not at analytical fidelity.
  const std::string port = "fabric.failures=[{kind: port, gpu: 3, port: 0, at: 1us}]";
  EXPECT_EQ(refusal_of([&] { pipeline.run(refused_ring({port})); }),
            "--set " + port +
                ": fabric.failures[0] (port): fabric.on_failure: replan is not simulated yet for circuits that go "
                "down (issue 55); on_failure: wait is (the transfer resumes on its route once it is back): set "
                "fabric.on_failure: wait");
  const ExperimentConfig waiting = refused_ring({port, "fabric.on_failure=wait"});
  EXPECT_EQ(refusal_of([&] { pipeline.run(waiting, Fidelity::analytical); }),
            "--set " + port +
                ": fabric.failures[0] (port): --fidelity analytical moves no packets to lose: run it at packet, "
                "packet_reference or chunk fidelity");
  EXPECT_EQ(refusal_of([&] { pipeline.run(waiting, Fidelity::packet); }), "");

  const ExperimentConfig random = refused_ring({"fabric.random_failures.port_mtbf=10h"});
  EXPECT_EQ(refusal_of([&] { pipeline.run(random); }),
            "--set fabric.random_failures.port_mtbf=10h: fabric.random_failures: a single run draws no random "
            "failures; photonsim availability CONFIG draws them over a month of training (docs/model.md, \"A month "
            "of training\"): run that, or leave out fabric.random_failures to run without them");
}

// A switch down at 0 that the plan leaves out carries no circuit: every
// on_failure policy runs it at every fidelity (analytical too: nothing to
// lose), in the time on_failure: wait gives; one down from
// 1 us, or every switch down at 0 (the plan keeps them), is still refused but
// under wait.
TEST(FailureRefusal, ASwitchThePlanLeavesOutRunsUnderEveryPolicy) {
  const ExperimentPipeline pipeline(nullptr);
  const std::vector<std::string> at_zero = {"fabric.ports=2", "fabric.failures=[{kind: switch, switch: 1, at: 0s}]"};
  for (const Fidelity fidelity :
       {Fidelity::packet, Fidelity::packet_reference, Fidelity::chunk, Fidelity::analytical}) {
    std::vector<std::string> waiting = at_zero;
    waiting.push_back("fabric.on_failure=wait");
    const RunReport waited = pipeline.run(refused_ring(waiting), fidelity);
    const Time expected = waited.result.completion;
    EXPECT_GT(expected, Time::ps(0));
    // Listed like any switch entry, at every fidelity: nothing lost.
    EXPECT_NE(waited.table().find("failure 0          switch 1 down at 0ps until the end: 0 packets (0 B) lost"),
              std::string::npos)
        << to_string(fidelity) << "\n" << waited.table();
    for (const char* policy : {"replan", "static_fallback", "{type: abort_restart, restart_time: 1s}"}) {
      std::vector<std::string> sets = at_zero;
      sets.push_back(std::string("fabric.on_failure=") + policy);
      EXPECT_EQ(pipeline.run(refused_ring(sets), fidelity).result.completion, expected)
          << policy << " " << to_string(fidelity);
    }
  }
  const std::string later = "fabric.failures=[{kind: switch, switch: 1, at: 1us}]";
  EXPECT_NE(refusal_of([&] { pipeline.run(refused_ring({"fabric.ports=2", later})); })
                .find("fabric.failures[0] (switch): fabric.on_failure: replan is not simulated yet"),
            std::string::npos);
  const std::string every = "fabric.failures=[{kind: switch, switch: 0, at: 0s, for: 1us}]";
  EXPECT_NE(refusal_of([&] { pipeline.run(refused_ring({every})); })
                .find("fabric.failures[0] (switch): fabric.on_failure: replan is not simulated yet"),
            std::string::npos);
}

// Recursive-doubling all-gather on 4 GPUs, each step on its own circuits
// (both steps reconfigure, 1 us each).
ExperimentConfig slow_ring(const std::vector<std::string>& sets) {
  std::vector<std::string> all = {"synthesis.algorithm=recursive_doubling", "synthesis.planner=every_step",
                                  "fabric.reconfig_delay=1us"};
  all.insert(all.end(), sets.begin(), sets.end());
  return refused_ring(all);
}

// The run is the healthy run 10 us later (the barrier: everything after the
// slow reconfiguration moves with it), at every fidelity; the analytical
// fidelity adds the extra delay to step 1, the prediction stays the healthy
// fabric's. Reports: a failures list (JSON, table) and two columns (CSV),
// none of them without failures.
TEST(FailureRefusal, ASlowReconfigurationRunsAndIsReported) {
  const ExperimentPipeline pipeline(nullptr);
  const std::string entry = "fabric.failures=[{kind: reconfiguration, step: 1, extra_delay: 10us}]";
  for (const Fidelity fidelity :
       {Fidelity::packet, Fidelity::packet_reference, Fidelity::chunk, Fidelity::analytical}) {
    const RunReport healthy = pipeline.run(slow_ring({}), fidelity);
    const RunReport slow = pipeline.run(slow_ring({entry}), fidelity);
    EXPECT_EQ(slow.result.completion, healthy.result.completion + Time::us(10)) << to_string(fidelity);
    EXPECT_EQ(slow.schedule.prediction().total(), healthy.schedule.prediction().total());
    EXPECT_EQ(slow.result.steps.at(1).reconfiguration, healthy.result.steps.at(1).reconfiguration + Time::us(10));
    EXPECT_EQ(healthy.json().find("failures"), std::string::npos);
    EXPECT_EQ(healthy.csv().find("failures"), std::string::npos);
    EXPECT_EQ(healthy.table().find("failure"), std::string::npos);
    EXPECT_NE(slow.json().find("\"failures\": [\n    {\"kind\": \"reconfiguration\", \"entry\": 0, \"step\": 1, "
                               "\"extra_delay_ps\": 10000000, \"commands\": 1, \"extra_dark_ps\": 10000000}"),
              std::string::npos)
        << slow.json();
    EXPECT_NE(slow.csv().find(",failures,extra_dark_ps,"), std::string::npos) << slow.csv();
    EXPECT_NE(slow.table().find("failure 0          reconfiguration before step 1 10us longer: 1 command, 10us more "
                                "dark\n"),
              std::string::npos)
        << slow.table();
  }
}

// What the engine refuses at run time names the entry where it was written.
TEST(FailureRefusal, AReconfigurationTheScheduleDoesNotHaveIsRefusedAtItsEntry) {
  const ExperimentPipeline pipeline(nullptr);
  const std::string entry = "fabric.failures=[{kind: reconfiguration, step: 9, extra_delay: 10us}]";
  for (const Fidelity fidelity : {Fidelity::packet, Fidelity::analytical}) {
    EXPECT_EQ(refusal_of([&] { pipeline.run(slow_ring({entry}), fidelity); }),
              "--set " + entry +
                  ": fabric.failures[0] (reconfiguration, step 9): the schedule has 2 steps (0..1), so there is no "
                  "step 9 to slow the reconfiguration of");
  }
  // The ring all-gather on the ring in place never reconfigures.
  const std::string first = "fabric.failures=[{kind: reconfiguration, step: 0, extra_delay: 10us}]";
  EXPECT_EQ(refusal_of([&] { pipeline.run(refused_ring({first})); }),
            "--set " + first +
                ": fabric.failures[0] (reconfiguration, step 0): step 0 keeps its circuits (its configuration is the "
                "one in place), so no reconfiguration precedes it to slow; none of its steps reconfigures");
}

// A straggler slows compute nodes: a plain collective has none (an error
// naming the entry); in a task graph the iteration, its prediction and the
// reports carry it.
TEST(FailureRefusal, AStragglerRunsInATaskGraph) {
  const ExperimentPipeline pipeline(nullptr);
  const std::string entry = "fabric.failures=[{kind: straggler, gpu: 1, slowdown: 1.5}]";
  EXPECT_EQ(refusal_of([&] { pipeline.run(refused_ring({entry})); }),
            "--set " + entry +
                ": fabric.failures[0] (straggler, GPU 1): a straggler slows the compute nodes of a task graph "
                "(workload.graph), and this run has none: give the workload a graph, or leave the entry out");
  const char* graph_yaml =
      "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 0ns}\n"
      "workload: {graph: [{name: a, type: compute, gpus: [0], duration: 2us},\n"
      "                   {name: b, type: compute, gpus: [1], duration: 2us},\n"
      "                   {name: c, type: compute, gpus: [0, 1], duration: 1us, after: [a, b]}]}\n"
      "synthesis: {algorithm: ring, topology: ring}\n";
  const GraphReport healthy = pipeline.run_graph(load_config_from_string(graph_yaml, "graph.yaml"));
  EXPECT_EQ(healthy.result.iteration, Time::us(3));
  EXPECT_EQ(healthy.json().find("failures"), std::string::npos);
  EXPECT_EQ(healthy.summary_csv().find("failures"), std::string::npos);
  // b takes 3 us, c 1.5 us: 4.5 us, predicted alike; b and c slowed by 1.5 us.
  const GraphReport slow = pipeline.run_graph(load_config_from_string(graph_yaml, "graph.yaml", {entry}));
  EXPECT_EQ(slow.result.iteration, Time::ns(4500));
  EXPECT_EQ(slow.predicted_iteration, Time::ns(4500));
  EXPECT_EQ(slow.result.critical_path, (std::vector<uint32_t>{1, 2}));
  EXPECT_NE(slow.json().find("{\"kind\": \"straggler\", \"entry\": 0, \"gpu\": 1, \"slowdown\": 1.5, \"nodes\": 2, "
                             "\"slowed_compute_ps\": 1500000}"),
            std::string::npos)
      << slow.json();
  EXPECT_NE(slow.summary_csv().find(",failures,slowed_compute_ps,"), std::string::npos) << slow.summary_csv();
  EXPECT_NE(slow.table().find("straggler GPU 1 x1.5: 2 compute nodes, 1.5us added"), std::string::npos) << slow.table();
}

// A port failure in a task graph: the one send is the worked case of
// docs/model.md ("Lost circuits"), 45 ns healthy, 150 ns with GPU 0's port
// down over [25, 125) ns; the graph reports what it lost and waited.
TEST(FailureRefusal, ACircuitFailureRunsInATaskGraph) {
  const ExperimentPipeline pipeline(nullptr);
  const char* graph_yaml =
      "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 5ns, packet: 1000B, failure_detection: 20ns,\n"
      "  on_failure: wait}\n"
      "workload: {graph: [{name: send, type: p2p, src: 0, dst: 1, bytes: 4000B}]}\n"
      "synthesis: {algorithm: ring, topology: ring}\n";
  const GraphReport healthy = pipeline.run_graph(load_config_from_string(graph_yaml, "graph.yaml"));
  EXPECT_EQ(healthy.result.iteration, Time::ns(45));
  const GraphReport failing = pipeline.run_graph(load_config_from_string(
      graph_yaml, "graph.yaml", {"fabric.failures=[{kind: port, gpu: 0, port: 0, at: 25ns, for: 100ns}]"}));
  EXPECT_EQ(failing.result.iteration, Time::ns(150));
  EXPECT_NE(failing.json().find("\"loss\": {\"lost_packets\": 2, \"lost_bytes\": 2000, \"dropped_packets\": 2, "
                                "\"resent_bytes\": 2000, \"rewinds\": 1, \"waited_ps\": 80000}"),
            std::string::npos)
      << failing.json();
  EXPECT_NE(failing.table().find("port GPU 0 port 0 down at 25ns for 100ns: 2 packets (2000 B) lost"),
            std::string::npos)
      << failing.table();
  EXPECT_NE(failing.summary_csv().find(",lost_packets,resent_bytes,waited_ps,"), std::string::npos)
      << failing.summary_csv();
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
