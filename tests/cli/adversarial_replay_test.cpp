// The adversarial battery, replay: saved schedules that are damaged, lie about
// their size, break the fabric's limits or fail verification are refused with
// one line naming the file, node or element; replay on another fabric
// predicts for that fabric.
#include "tests/cli/hostile_run.h"

namespace photonsim_test {
namespace {

class AdversarialReplay : public Hostile {
 protected:
  // The quickstart schedule (8 GPUs, the ring, 4 MB flows) in text format.
  std::string quickstart_schedule() {
    const std::string pb = (dir_ / "q.pbtxt").string();
    EXPECT_EQ(run({"synth", quickstart(), "--out", pb}).code, 0);
    return slurp(pb);
  }
  std::string binary_schedule() {
    const std::string pb = (dir_ / "q.pb").string();
    EXPECT_EQ(run({"synth", quickstart(), "--out", pb}).code, 0);
    return pb;
  }
  // A 4-GPU hand-written schedule around `body` (topologies and steps).
  std::string hand(const std::string& body, const std::string& gpus = "4") {
    return write("hand.pbtxt", "collective: \"alltoall\" algorithm: \"hand\" planner: \"hand\" gpus: " + gpus +
                                   "\nmessage_bytes: 1000 initial_topology: 0\n" + body + "\nend_marker: 827542864\n");
  }
  std::string config4() {
    return write("c4.yaml",
                 "fabric: {gpus: 4, bandwidth: 100Gbps, latency: 1ns}\n"
                 "workload: {collective: alltoall, message: 1000B}\nsynthesis: {algorithm: direct}\n");
  }
  static constexpr const char* kRing4 =
      "topologies { name: \"ring\" gpus: 4 edges { src: 0 dst: 1 } edges { src: 1 dst: 2 } edges { src: 2 dst: 3 } "
      "edges { src: 3 dst: 0 } }\n";
};

TEST_F(AdversarialReplay, FasterFabricIsPredictedAgain) {
  // Before the fix: the stored 8000 Gbps... prediction, "error 98.765 %".
  const std::string pb = binary_schedule();
  const HostileOutcome o = run({"replay", pb, quickstart(), "--set", "fabric.bandwidth=400Gbps", "--format", "csv"});
  ASSERT_EQ(o.code, 0) << o.err;
  // 28 rounds of (500 ns + 4 MB at 400 Gbps = 80 us), store-and-forward: measured = predicted.
  EXPECT_NE(o.out.find(",2254000000,2254000000,0.0000,"), std::string::npos) << o.out;
}

TEST_F(AdversarialReplay, ScheduleWithoutAPredictionUnderAnalyticalFidelity) {
  // Before the fix: "internal error: vector::_M_range_check", exit 3.
  const std::string pb = hand(std::string(kRing4) + "steps { topology: 0 transfers { src: 0 dst: 1 bytes: 1000 } }");
  const HostileOutcome o =
      run({"replay", "--no-verify", pb, config4(), "--fidelity", "analytical", "--format", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("\"model\": \"alpha_beta_congestion\""), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("stored_model"), std::string::npos);
}

TEST_F(AdversarialReplay, ScheduleThatFailsVerification) {
  // Before the fix: replayed with exit 0. One block dropped from a transfer.
  std::string text = quickstart_schedule();
  const size_t at = text.find("    blocks: 10\n");
  ASSERT_NE(at, std::string::npos);
  text.erase(at, std::string("    blocks: 10\n").size());
  const std::string pb = write("broken.pbtxt", text);
  refuse({"replay", pb, quickstart()}, {"broken.pbtxt", "fails verification", "step", "node"});
  EXPECT_EQ(run({"replay", "--no-verify", pb, quickstart()}).code, 0);
}

TEST_F(AdversarialReplay, GpuCountOfAnotherFabric) {
  refuse({"replay", binary_schedule(), quickstart(), "--set", "fabric.gpus=16"},
         {"8 GPUs", "fabric.gpus is 16", "quickstart.yaml"});
}

TEST_F(AdversarialReplay, ScheduleClaiming4096GpusIsRefusedBeforeVerifying) {
  // A tiny file whose verification alone took over 8 GB.
  const std::string pb = write("big.pbtxt",
                               "collective: \"alltoall\" algorithm: \"hand\" planner: \"hand\" gpus: 4096\n"
                               "message_bytes: 1000 initial_topology: 0\n"
                               "topologies { name: \"t\" gpus: 4096 edges { src: 0 dst: 1 } }\n"
                               "steps { topology: 0 transfers { src: 0 dst: 1 bytes: 1000 blocks: 0 } }\n"
                               "end_marker: 827542864\n");
  refuse({"replay", pb, quickstart()}, {"4096 GPUs", "fabric.gpus is 8"});
}

TEST_F(AdversarialReplay, TopologyPastThePortLimit) {
  const std::string pb = hand(
      "topologies { name: \"star\" gpus: 4 edges { src: 0 dst: 1 } edges { src: 0 dst: 2 } }\n"
      "steps { topology: 0 transfers { src: 0 dst: 1 bytes: 1000 } }");
  refuse({"replay", "--no-verify", pb, config4()}, {"star", "node 0", "fabric.ports is 1"});
}

TEST_F(AdversarialReplay, NodeBeyondGpus) {
  const std::string pb = hand(
      "topologies { name: \"t\" gpus: 4 edges { src: 0 dst: 9 } }\n"
      "steps { topology: 0 transfers { src: 0 dst: 9 bytes: 1000 } }");
  refuse({"replay", "--no-verify", pb, config4()}, {"hand.pbtxt", "9"});
}

TEST_F(AdversarialReplay, TransferToItself) {
  const std::string pb = hand(std::string(kRing4) + "steps { topology: 0 transfers { src: 2 dst: 2 bytes: 1000 } }");
  refuse({"replay", "--no-verify", pb, config4()}, {"hand.pbtxt"});
}

TEST_F(AdversarialReplay, MissingTopologyIndex) {
  const std::string pb = hand(std::string(kRing4) + "steps { topology: 7 transfers { src: 0 dst: 1 bytes: 1000 } }");
  refuse({"replay", "--no-verify", pb, config4()}, {"hand.pbtxt", "topology"});
}

TEST_F(AdversarialReplay, PathWithAHopThatIsNoCircuit) {
  const std::string pb =
      hand(std::string(kRing4) + "steps { topology: 0 transfers { src: 0 dst: 2 bytes: 1000 path: 0 path: 2 } }");
  refuse({"replay", "--no-verify", pb, config4()}, {"step 0", "hop 0->2", "not a circuit"});
}

TEST_F(AdversarialReplay, UnroutableTransfer) {
  const std::string pb = hand(
      "topologies { name: \"line\" gpus: 4 edges { src: 0 dst: 1 } edges { src: 1 dst: 2 } "
      "edges { src: 2 dst: 3 } }\nsteps { topology: 0 transfers { src: 3 dst: 0 bytes: 1000 } }");
  refuse({"replay", "--no-verify", pb, config4()}, {"no route from node 3 to node 0"});
}

TEST_F(AdversarialReplay, NegativeBytes) {
  const std::string pb = hand(std::string(kRing4) + "steps { topology: 0 transfers { src: 0 dst: 1 bytes: -5 } }");
  refuse({"replay", "--no-verify", pb, config4()}, {"hand.pbtxt"});
}

TEST_F(AdversarialReplay, TruncatedBinarySchedule) {
  const std::string bytes = slurp(binary_schedule());
  refuse({"replay", write("cut.pb", bytes.substr(0, bytes.size() / 2)), quickstart()}, {"cut.pb"});
}

TEST_F(AdversarialReplay, BitFlippedBinarySchedule) {
  std::string bytes = slurp(binary_schedule());
  for (size_t i = 7; i < bytes.size(); i += 61) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  refuse({"replay", write("flipped.pb", bytes), quickstart()}, {"flipped.pb"});
}

TEST_F(AdversarialReplay, EmptyScheduleFile) { refuse({"replay", write("empty.pb", ""), quickstart()}, {"empty.pb"}); }

TEST_F(AdversarialReplay, GarbageScheduleFile) {
  refuse({"replay", write("junk.pb", std::string(4096, '\xff')), quickstart()}, {"junk.pb"});
}

TEST_F(AdversarialReplay, TextScheduleWithSyntaxError) {
  refuse({"replay", write("bad.pbtxt", "collective: \"alltoall\" gpus: {{{\n"), quickstart()}, {"bad.pbtxt"});
}

TEST_F(AdversarialReplay, ScheduleIsADirectory) {
  fs::create_directories(dir_ / "sched.pb");
  refuse({"replay", (dir_ / "sched.pb").string(), quickstart()}, {"sched.pb", "directory"});
}

TEST_F(AdversarialReplay, MissingScheduleFile) {
  refuse({"replay", (dir_ / "absent.pb").string(), quickstart()}, {"absent.pb"});
}

TEST_F(AdversarialReplay, VerifyOfAHugeClaimedScheduleStaysSmall) {
  const std::string pb = write("big.pbtxt",
                               "collective: \"alltoall\" algorithm: \"hand\" planner: \"hand\" gpus: 4096\n"
                               "message_bytes: 1000 initial_topology: 0\n"
                               "topologies { name: \"t\" gpus: 4096 edges { src: 0 dst: 1 } }\n"
                               "steps { topology: 0 transfers { src: 0 dst: 1 bytes: 1000 blocks: 0 } }\n"
                               "end_marker: 827542864\n");
  const HostileOutcome o = run({"verify", pb});
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_FALSE(o.timed_out);
  EXPECT_LE(o.peak_rss_kib, 2L * 1024 * 1024);
  EXPECT_NE(o.out.find("violation"), std::string::npos) << o.out;
}

TEST_F(AdversarialReplay, ControlCharactersInNamesAreEscaped) {
  const std::string pb =
      write("esc.pbtxt",
            "collective: \"alltoall\" algorithm: \"a\\033[31m,\\\"x\\nb\" planner: \"hand\" gpus: 4\n"
            "message_bytes: 1000 initial_topology: 0\n" +
                std::string(kRing4) +
                "steps { topology: 0 transfers { src: 0 dst: 1 bytes: 1000 } }\n"
                "end_marker: 827542864\n");
  const HostileOutcome table = run({"replay", "--no-verify", pb, config4()});
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_EQ(table.out.find('\033'), std::string::npos) << "an escape sequence reached the terminal";
  const HostileOutcome json = run({"replay", "--no-verify", pb, config4(), "--format", "json"});
  EXPECT_NE(json.out.find("\"algorithm\": \"a\\u001b[31m,\\\"x\\nb\""), std::string::npos) << json.out;
  const HostileOutcome csv = run({"replay", "--no-verify", pb, config4(), "--format", "csv"});
  EXPECT_NE(csv.out.find(",\"a\033[31m,\"\"x\nb\","), std::string::npos) << csv.out;
  // Still one header line and one row when read as CSV (the quoted newline is inside a field).
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')).find("algorithm"), std::string("collective,").size());
}

TEST_F(AdversarialReplay, NonUtf8NameBecomesAReplacementCharacterInJson) {
  const std::string pb = write("u.pbtxt",
                               "collective: \"alltoall\" algorithm: \"x\\377y\" planner: \"hand\" gpus: 4\n"
                               "message_bytes: 1000 initial_topology: 0\n" +
                                   std::string(kRing4) +
                                   "steps { topology: 0 transfers { src: 0 dst: 1 bytes: 1000 } }\n"
                                   "end_marker: 827542864\n");
  const HostileOutcome o = run({"replay", "--no-verify", pb, config4(), "--format", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("\"algorithm\": \"x\\ufffdy\""), std::string::npos) << o.out;
}

// Issue 49, case 2: fabric.bandwidth_scope: gpu with reconfiguration:
// changed ended in "internal error: circuit-by-circuit reconfiguration runs
// every circuit at fabric.bandwidth", exit 3. It is bad input: exit 1, both
// keys named, for replay (2 GPUs, 1 directed port, one 1 B transfer) and for
// run (a ring AllReduce).
TEST_F(AdversarialReplay, GpuBandwidthScopeWithPartialReconfigurationIsBadInput) {
  const std::string pb = write("two.pbtxt",
                               "collective: \"alltoall\" gpus: 2 message_bytes: 1 initial_topology: -1\n"
                               "topologies { name: \"t\" gpus: 2 edges { src: 0 dst: 1 } edges { src: 1 dst: 0 } }\n"
                               "steps { topology: 0 transfers { src: 0 dst: 1 bytes: 1 } }\n"
                               "end_marker: 827542864\n");
  const std::string config = write("gpu_changed.yaml",
                                   "fabric: {gpus: 2, bandwidth: 8Gbps, latency: 0ns, reconfig_delay: 1us,\n"
                                   "         bandwidth_scope: gpu, reconfiguration: changed}\n"
                                   "workload: {collective: alltoall, message: 1B}\nsynthesis: {algorithm: direct}\n");
  const HostileOutcome replay = run({"replay", "--no-verify", pb, config});
  EXPECT_EQ(replay.code, 1) << replay.err;
  EXPECT_NE(replay.err.find("fabric.bandwidth_scope"), std::string::npos) << replay.err;
  EXPECT_NE(replay.err.find("fabric.reconfiguration: all"), std::string::npos) << replay.err;
  EXPECT_EQ(replay.err.find("internal error"), std::string::npos) << replay.err;
  // The same fabric with `all` runs: 1 us dark from no circuits + 1 B at 8 Gbps.
  const HostileOutcome all =
      run({"replay", "--no-verify", pb, config, "--set", "fabric.reconfiguration=all", "--format", "csv"});
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_NE(all.out.find(",1001000,"), std::string::npos) << all.out;
  const std::string ring = write("ring_allreduce.yaml",
                                 "fabric: {gpus: 4, ports: 2, bandwidth: 800Gbps, latency: 500ns,\n"
                                 "         bandwidth_scope: gpu, reconfiguration: changed}\n"
                                 "workload: {collective: allreduce, message: 4MB}\n"
                                 "synthesis: {algorithm: ring, topology: ring}\n");
  const HostileOutcome run_ring = run({"run", ring});
  EXPECT_EQ(run_ring.code, 1) << run_ring.err;
  EXPECT_NE(run_ring.err.find("ring_allreduce.yaml:2"), std::string::npos) << run_ring.err;
  EXPECT_NE(run_ring.err.find("fabric.reconfiguration: all"), std::string::npos) << run_ring.err;
}

// Issue 49, case 5: per step, `reconfigured` says whether the step's
// configuration differs from the one before it, a property of the schedule
// that every sync mode reports alike. Before, dataflow marked steps that only
// waited for an earlier step's reconfiguration as reconfigured too ([true,
// true, true] against the barrier's [true, false, false]). A 4-GPU ring from
// no circuits, one transfer a step, no transfer waiting for another.
TEST_F(AdversarialReplay, ReconfiguredMeansTheScheduleChangedCircuitsUnderEverySync) {
  const std::string pb = hand(std::string(kRing4) +
                              "steps { topology: 0 transfers { src: 0 dst: 1 bytes: 1000 } }\n"
                              "steps { topology: 0 transfers { src: 2 dst: 3 bytes: 1000 } }\n"
                              "steps { topology: 0 transfers { src: 0 dst: 1 bytes: 1000 } }\n");
  const std::string from_nothing = write("none.pbtxt", [&] {
    std::string text = slurp(pb);
    text.replace(text.find("initial_topology: 0"), std::string("initial_topology: 0").size(), "initial_topology: -1");
    return text;
  }());
  for (const std::string sync : {"barrier", "dataflow"}) {
    const HostileOutcome o = run({"replay", "--no-verify", from_nothing, config4(), "--set", "fabric.sync=" + sync,
                                  "--set", "fabric.reconfig_delay=1us", "--format", "json"});
    ASSERT_EQ(o.code, 0) << o.err;
    std::vector<std::string> marks;
    for (size_t at = o.out.find("\"reconfigured\": "); at != std::string::npos;
         at = o.out.find("\"reconfigured\": ", at + 1)) {
      marks.push_back(o.out.substr(at + 16, 4));
    }
    EXPECT_EQ(marks, (std::vector<std::string>{"true", "fals", "fals"})) << sync << "\n" << o.out;
    // Under dataflow steps 1 and 2 still waited for the circuits step 0's
    // reconfiguration lit: their measured dark time says so, not the mark.
    size_t dark_steps = 0;
    const std::string dark = "\"measured\": {\"reconfiguration_ps\": 1000000,";
    for (size_t at = o.out.find(dark); at != std::string::npos; at = o.out.find(dark, at + 1)) ++dark_steps;
    EXPECT_EQ(dark_steps, sync == "dataflow" ? 3u : 1u) << sync << "\n" << o.out;
  }
}

}  // namespace
}  // namespace photonsim_test
