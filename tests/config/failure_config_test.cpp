// fabric.failures, random_failures, failure_detection and on_failure (issue
// 55, item 1): every kind read with its values, the defaults, and every
// refusal with its message (the entry's index, its key, its line, the values
// allowed).
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "core/error.h"
#include "sim/config/config_loader.h"
#include "tests/support/minimal_config.h"

namespace photonsim {
namespace {

// Line numbers matter: the fabric ends at line 10, so `fabric_with`'s
// first extra line is line 11 and, after "  failures:", entry i is at line 12 + i.
constexpr const char* kFailureBase =
    "workload:\n"               // 1
    "  collective: alltoall\n"  // 2
    "  message: 1MB\n"          // 3
    "synthesis:\n"              // 4
    "  algorithm: direct\n"     // 5
    "fabric:\n"                 // 6
    "  gpus: 8\n"               // 7
    "  ports: 2\n"              // 8
    "  bandwidth: 800Gbps\n"    // 9
    "  latency: 0ns\n";         // 10

// Two servers of 2x2 tiles (8 GPUs), 8x8 MZIs each: what mzi entries name.
constexpr const char* kFailurePhysical = "  physical: {servers: 2x1, tiles: 2x2, mesh: 8x8}\n";

std::string fabric_with(const std::string& extra) { return std::string(kFailureBase) + extra; }

// "  failures:" and one flow-map entry a line (entry i at line 12 + i).
std::string failure_list(std::initializer_list<std::string> entries) {
  std::string text = "  failures:\n";
  for (const std::string& entry : entries) text += "    - " + entry + "\n";
  return text;
}

std::string with_failures(std::initializer_list<std::string> entries) { return fabric_with(failure_list(entries)); }

ExperimentConfig load_failures(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  return load_config_from_string(yaml, "exp.yaml", sets);
}

// The message loading `yaml` fails with ("" when it loads).
std::string failure_refusal(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  try {
    load_failures(yaml, sets);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

#define EXPECT_REFUSED_WITH(yaml, expected) EXPECT_EQ(failure_refusal(yaml), expected)

TEST(FailureConfig, EveryKindIsReadWithItsValues) {
  const ExperimentConfig config =
      load_failures(fabric_with(kFailurePhysical) +
                    "  failures:\n"                                                // 12
                    "    - {kind: port, gpu: 3, port: 0, at: 50us, for: 1ms}\n"    // 13
                    "    - {kind: switch, switch: 1, at: 0s}\n"                    // 14
                    "    - {kind: link, gpu: 5, port: 1, bandwidth: 200Gbps}\n"    // 15
                    "    - {kind: flap, gpu: 1, port: 1, at: 20us, for: 5us}\n"    // 16
                    "    - {kind: reconfiguration, step: 3, extra_delay: 10us}\n"  // 17
                    "    - {kind: mzi, server: 1, row: 4, col: 7}\n"               // 18
                    "    - {kind: straggler, gpu: 6, slowdown: 1.3}\n"             // 19
                    "  random_failures: {port_mtbf: 1300000h, flap_mtbf: 130000h, seed: 7}\n"
                    "  failure_detection: 10us\n"
                    "  on_failure: replan\n");
  const FailureSpec& f = config.fabric.failures;
  ASSERT_EQ(f.entries.size(), 7u);
  EXPECT_TRUE(f.any());

  const Failure& port = f.entries[0];
  EXPECT_EQ(port.kind, FailureKind::port);
  EXPECT_EQ(port.gpu, 3);
  EXPECT_EQ(port.port, 0);
  EXPECT_EQ(port.at, Time::us(50));
  ASSERT_TRUE(port.duration.has_value());
  EXPECT_EQ(*port.duration, Time::ms(1));
  EXPECT_EQ(port.end(), Time::us(1050));

  const Failure& optical_switch = f.entries[1];
  EXPECT_EQ(optical_switch.kind, FailureKind::optical_switch);
  EXPECT_EQ(optical_switch.optical_switch, 1);
  EXPECT_EQ(optical_switch.at, Time::zero());
  EXPECT_FALSE(optical_switch.duration.has_value());
  EXPECT_EQ(optical_switch.end(), Time::max());

  const Failure& link = f.entries[2];
  EXPECT_EQ(link.kind, FailureKind::link);
  EXPECT_EQ(link.gpu, 5);
  EXPECT_EQ(link.port, 1);
  EXPECT_EQ(link.bandwidth.bps(), 200000000000);
  EXPECT_EQ(link.at, Time::zero());
  EXPECT_FALSE(link.duration.has_value());

  const Failure& flap = f.entries[3];
  EXPECT_EQ(flap.kind, FailureKind::flap);
  EXPECT_EQ(flap.gpu, 1);
  EXPECT_EQ(flap.port, 1);
  EXPECT_EQ(flap.at, Time::us(20));
  EXPECT_EQ(flap.duration, Time::us(5));

  const Failure& reconfiguration = f.entries[4];
  EXPECT_EQ(reconfiguration.kind, FailureKind::reconfiguration);
  EXPECT_EQ(reconfiguration.step, 3);
  EXPECT_EQ(reconfiguration.extra_delay, Time::us(10));

  const Failure& mzi = f.entries[5];
  EXPECT_EQ(mzi.kind, FailureKind::mzi);
  EXPECT_EQ(mzi.server, 1);
  EXPECT_EQ(mzi.row, 4);
  EXPECT_EQ(mzi.col, 7);

  const Failure& straggler = f.entries[6];
  EXPECT_EQ(straggler.kind, FailureKind::straggler);
  EXPECT_EQ(straggler.gpu, 6);
  EXPECT_DOUBLE_EQ(straggler.slowdown, 1.3);

  ASSERT_TRUE(f.random.has_value());
  EXPECT_DOUBLE_EQ(f.random->port_mtbf_s, 1300000.0 * 3600);
  ASSERT_TRUE(f.random->flap_mtbf_s.has_value());
  EXPECT_DOUBLE_EQ(*f.random->flap_mtbf_s, 130000.0 * 3600);
  EXPECT_EQ(f.random->seed, uint64_t{7});
  EXPECT_EQ(f.detection, Time::us(10));
  EXPECT_EQ(f.on_failure, FailurePolicy::replan);

  // Each entry's place, for the engine's messages; the list's, for the run's refusal.
  ASSERT_EQ(config.failure_locations.size(), 7u);
  EXPECT_EQ(config.failure_locations[0], "exp.yaml:13");
  EXPECT_EQ(config.failure_locations[6], "exp.yaml:19");
  EXPECT_EQ(config.key_locations.at("fabric.failures"), "exp.yaml:12");
}

TEST(FailureConfig, BlockEntriesAreReadAndPlacedAtTheirFirstLine) {
  const ExperimentConfig config =
      load_failures(fabric_with("  failures:\n"            // 11
                                "    - kind: port\n"       // 12
                                "      gpu: 7\n"           // 13
                                "      port: 1\n"          // 14
                                "    - kind: straggler\n"  // 15
                                "      gpu: 0\n"           // 16
                                "      slowdown: 2\n"));   // 17
  ASSERT_EQ(config.fabric.failures.entries.size(), 2u);
  EXPECT_EQ(config.fabric.failures.entries[0].gpu, 7);
  EXPECT_EQ(config.failure_locations[1], "exp.yaml:15");
  EXPECT_EQ(failure_refusal(fabric_with("  failures:\n"
                                        "    - kind: port\n"
                                        "      gpu: 7\n"
                                        "      port: 2\n")),
            "exp.yaml:14: fabric.failures[0].port must be a port in 0..1 (fabric.ports is 2; got '2')");
}

TEST(FailureConfig, WithoutFailureKeysTheFabricIsHealthy) {
  const ExperimentConfig config = load_failures(kMinimalConfig);
  const FailureSpec& f = config.fabric.failures;
  EXPECT_FALSE(f.any());
  EXPECT_TRUE(f.entries.empty());
  EXPECT_FALSE(f.random.has_value());
  EXPECT_EQ(f.detection, Time::us(100));  // the SFP MSA's largest LOS assert time
  EXPECT_EQ(f.on_failure, FailurePolicy::replan);
  EXPECT_EQ(f.watchdog_timeout, Time::ms(600000));  // PyTorch's ProcessGroupNCCL default, 10 minutes
  EXPECT_FALSE(f.restart_time.has_value());
  EXPECT_TRUE(config.failure_locations.empty());
  EXPECT_FALSE(load_failures(fabric_with("  failures: []\n")).fabric.failures.any());
  // Detection and policy alone break nothing.
  EXPECT_FALSE(load_failures(fabric_with("  failure_detection: 1us\n  on_failure: wait\n")).fabric.failures.any());
}

TEST(FailureConfig, RandomFailuresTakeTheirDefaults) {
  const ExperimentConfig config = load_failures(fabric_with("  random_failures: {}\n"));
  const FailureSpec& f = config.fabric.failures;
  EXPECT_TRUE(f.any());
  EXPECT_TRUE(f.entries.empty());
  ASSERT_TRUE(f.random.has_value());
  EXPECT_DOUBLE_EQ(f.random->port_mtbf_s, 1300000.0 * 3600);  // Alibaba HPN's 0.057 % per month
  EXPECT_FALSE(f.random->flap_mtbf_s.has_value());
  EXPECT_FALSE(f.random->seed.has_value());  // the experiment's seed
}

TEST(FailureConfig, DurationsTakeUnitsUpToDaysExactly) {
  const auto mtbf = [](const std::string& text) {
    return load_failures(fabric_with("  random_failures: {port_mtbf: " + text + "}\n"))
        .fabric.failures.random->port_mtbf_s;
  };
  EXPECT_DOUBLE_EQ(mtbf("1.5h"), 5400.0);
  EXPECT_DOUBLE_EQ(mtbf("10min"), 600.0);
  EXPECT_DOUBLE_EQ(mtbf("2d"), 172800.0);
  EXPECT_DOUBLE_EQ(mtbf("90s"), 90.0);
  EXPECT_DOUBLE_EQ(mtbf("50us"), 50e-6);
  EXPECT_DOUBLE_EQ(mtbf("100000000000h"), 3.6e14);  // past what a Time holds
  EXPECT_EQ(failure_refusal(fabric_with("  random_failures: {port_mtbf: 0h}\n")),
            "exp.yaml:11: fabric.random_failures.port_mtbf must be positive (got '0h')");
  EXPECT_EQ(failure_refusal(fabric_with("  random_failures: {port_mtbf: -5h}\n")),
            "exp.yaml:11: fabric.random_failures.port_mtbf must not be negative (got '-5h')");
  EXPECT_EQ(failure_refusal(fabric_with("  random_failures: {flap_mtbf: 3years}\n")),
            "exp.yaml:11: fabric.random_failures.flap_mtbf: cannot parse duration '3years': unknown unit 'years' "
            "(expected a number followed by one of: ps, ns, us, ms, s, min, h, d)");
  EXPECT_EQ(failure_refusal(fabric_with("  random_failures: {port_mtbf: 1300000}\n")),
            "exp.yaml:11: fabric.random_failures.port_mtbf: cannot parse duration '1300000': missing unit "
            "(expected a number followed by one of: ps, ns, us, ms, s, min, h, d)");
  EXPECT_EQ(failure_refusal(fabric_with("  random_failures: {port_mtbf: 0.5ps}\n")),
            "exp.yaml:11: fabric.random_failures.port_mtbf: cannot parse duration '0.5ps': not a whole number of "
            "picoseconds (expected a number followed by one of: ps, ns, us, ms, s, min, h, d)");
  EXPECT_EQ(failure_refusal(fabric_with("  random_failures: {seed: -1}\n")),
            "exp.yaml:11: fabric.random_failures.seed must be an integer >= 0 (got '-1')");
  EXPECT_EQ(failure_refusal(fabric_with("  random_failures: {port_mtfb: 5h}\n")),
            "exp.yaml:11: unknown key 'fabric.random_failures.port_mtfb' (valid keys under fabric.random_failures: "
            "port_mtbf, flap_mtbf, port_repair, flap_duration, seed); did you mean 'fabric.random_failures.port_mtbf'?");
  EXPECT_EQ(failure_refusal(fabric_with("  random_failures:\n")),
            "exp.yaml:11: fabric.random_failures must be a map (got nothing)");
}

TEST(FailureConfig, OnFailureTakesAPolicyAndAbortRestartItsTimes) {
  EXPECT_EQ(load_failures(fabric_with("  on_failure: static_fallback\n")).fabric.failures.on_failure,
            FailurePolicy::static_fallback);
  const FailureSpec f =
      load_failures(fabric_with("  on_failure: {type: abort_restart, watchdog_timeout: 5min, restart_time: 0.5h}\n"))
          .fabric.failures;
  EXPECT_EQ(f.on_failure, FailurePolicy::abort_restart);
  EXPECT_EQ(f.watchdog_timeout, Time::ms(300000));
  EXPECT_EQ(f.restart_time, Time::ms(1800000));
  EXPECT_EQ(
      failure_refusal(fabric_with("  on_failure: retry\n")),
      "exp.yaml:11: fabric.on_failure must be one of: replan, wait, static_fallback, abort_restart (got 'retry')");
  EXPECT_EQ(failure_refusal(fabric_with("  on_failure: abort_restart\n")),
            "exp.yaml:11: fabric.on_failure: abort_restart needs restart_time, how long the job takes to restart from "
            "its last checkpoint (no published figure is taken as a default), e.g. {type: abort_restart, "
            "restart_time: 5min}");
  EXPECT_EQ(failure_refusal(fabric_with("  on_failure: {type: replan, restart_time: 5min}\n")),
            "exp.yaml:11: fabric.on_failure: replan takes no parameters (got 'restart_time'; abort_restart takes "
            "watchdog_timeout, restart_time and checkpoint_interval)");
  EXPECT_EQ(failure_refusal(fabric_with("  on_failure: {type: abort_restart, restart_time: 5min, timeout: 1s}\n")),
            "exp.yaml:11: fabric.on_failure: abort_restart has no parameter 'timeout' (valid: watchdog_timeout, "
            "restart_time, checkpoint_interval)");
  EXPECT_EQ(failure_refusal(fabric_with("  on_failure: {type: abort_restart, restart_time: 200d}\n")),
            "exp.yaml:11: fabric.on_failure.restart_time = '200d' passes the largest time photonsim represents, "
            "9223372036854775807 ps (about 106.75 days)");
  EXPECT_EQ(failure_refusal(fabric_with("  failure_detection: -1us\n")),
            "exp.yaml:11: fabric.failure_detection must not be negative (got '-1us')");
}

TEST(FailureConfig, AnEntryOfUnknownKindOrKeyIsRefused) {
  EXPECT_REFUSED_WITH(with_failures({"{kind: nic, gpu: 0}"}),
                      "exp.yaml:12: fabric.failures[0].kind must be one of: port, switch, link, flap, reconfiguration, "
                      "mzi, straggler (got 'nic')");
  EXPECT_REFUSED_WITH(with_failures({"{kind: port, gpu: 0, port: 0}", "{gpu: 0, port: 1}"}),
                      "exp.yaml:13: fabric.failures[1]: missing required key 'kind' (one of: port, switch, link, flap, "
                      "reconfiguration, mzi, straggler)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: port, gpu: 0, prt: 0}"}),
                      "exp.yaml:12: fabric.failures[0]: unknown key 'prt' (valid keys of a port failure: kind, gpu, "
                      "port, at, for); did you mean 'port'?");
  EXPECT_REFUSED_WITH(with_failures({"{kind: port, gpu: 0, port: 0, slowdown: 2}"}),
                      "exp.yaml:12: fabric.failures[0]: key 'slowdown' does not apply to a port failure (valid keys of "
                      "a port failure: kind, gpu, port, at, for)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: straggler, gpu: 0, slowdown: 2, at: 1us}"}),
                      "exp.yaml:12: fabric.failures[0]: key 'at' does not apply to a straggler failure (valid keys of "
                      "a straggler failure: kind, gpu, slowdown)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: port, gpu: 0, port: 0, gpu: 1}"}),
                      "exp.yaml:12: fabric.failures[0]: duplicate key 'gpu'");
  EXPECT_REFUSED_WITH(fabric_with("  failures: {kind: port}\n"),
                      "exp.yaml:11: fabric.failures must be a list of failures, each a map such as {kind: port, gpu: "
                      "0, port: 0, at: 10us} (got a map)");
  EXPECT_REFUSED_WITH(with_failures({"port"}),
                      "exp.yaml:12: fabric.failures[0] must be a map with a kind, such as {kind: port, gpu: 0, port: "
                      "0, at: 10us} (got a single value)");
}

TEST(FailureConfig, AMissingRequiredKeyIsNamedWithWhatTheKindNeeds) {
  EXPECT_REFUSED_WITH(with_failures({"{kind: port, gpu: 3}"}),
                      "exp.yaml:12: fabric.failures[0]: missing required key 'port' (a port failure needs kind, gpu, "
                      "port)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: flap, gpu: 1, port: 1, at: 20us}"}),
                      "exp.yaml:12: fabric.failures[0]: missing required key 'for' (a flap failure needs kind, gpu, "
                      "port, at, for)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: switch}"}),
                      "exp.yaml:12: fabric.failures[0]: missing required key 'switch' (a switch failure needs kind, "
                      "switch)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: link, gpu: 5, port: 1}"}),
                      "exp.yaml:12: fabric.failures[0]: missing required key 'bandwidth' (a link failure needs kind, "
                      "gpu, port, bandwidth)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: reconfiguration, step: 3}"}),
                      "exp.yaml:12: fabric.failures[0]: missing required key 'extra_delay' (a reconfiguration failure "
                      "needs kind, step, extra_delay)");
  EXPECT_REFUSED_WITH(fabric_with(std::string(kFailurePhysical) + failure_list({"{kind: mzi, server: 0, row: 1}"})),
                      "exp.yaml:13: fabric.failures[0]: missing required key 'col' (a mzi failure needs kind, server, "
                      "row, col)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: straggler, gpu: 6}"}),
                      "exp.yaml:12: fabric.failures[0]: missing required key 'slowdown' (a straggler failure needs "
                      "kind, gpu, slowdown)");
}

TEST(FailureConfig, GpusPortsAndSwitchesMustExist) {
  EXPECT_REFUSED_WITH(with_failures({"{kind: port, gpu: 8, port: 0}"}),
                      "exp.yaml:12: fabric.failures[0].gpu must be a GPU in 0..7 (fabric.gpus is 8; got '8')");
  EXPECT_REFUSED_WITH(with_failures({"{kind: straggler, gpu: -1, slowdown: 2}"}),
                      "exp.yaml:12: fabric.failures[0].gpu must be a GPU in 0..7 (fabric.gpus is 8; got '-1')");
  EXPECT_REFUSED_WITH(
      with_failures({"{kind: port, gpu: 0, port: 0}", "{kind: flap, gpu: 0, port: 2, at: 0s, for: 1us}"}),
      "exp.yaml:13: fabric.failures[1].port must be a port in 0..1 (fabric.ports is 2; got '2')");
  EXPECT_REFUSED_WITH(with_failures({"{kind: link, gpu: 0, port: one, bandwidth: 1Gbps}"}),
                      "exp.yaml:12: fabric.failures[0].port must be a port in 0..1 (fabric.ports is 2; got 'one')");
  EXPECT_REFUSED_WITH(with_failures({"{kind: switch, switch: 2}"}),
                      "exp.yaml:12: fabric.failures[0].switch must be an optical switch in 0..1 (fabric.ports is 2: "
                      "port p of every GPU is on switch p; got '2')");
}

TEST(FailureConfig, TimesMustBeWithinTheRunsRange) {
  EXPECT_REFUSED_WITH(with_failures({"{kind: port, gpu: 0, port: 0, at: -1us}"}),
                      "exp.yaml:12: fabric.failures[0].at must not be negative (got '-1us')");
  EXPECT_REFUSED_WITH(with_failures({"{kind: port, gpu: 0, port: 0, at: 10000000s}"}),
                      "exp.yaml:12: fabric.failures[0].at: cannot parse time '10000000s': value too large (expected "
                      "a number followed by one of: ps, ns, us, ms, s)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: port, gpu: 0, port: 0, at: 9000000s, for: 1000000s}"}),
                      "exp.yaml:12: fabric.failures[0]: at + for = 9000000s + 1000000s passes the largest time "
                      "photonsim represents, 9223372036854775807 ps (about 106.75 days)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: flap, gpu: 0, port: 0, at: 1us, for: 0s}"}),
                      "exp.yaml:12: fabric.failures[0].for must be positive (got '0s'); leave it out for a failure "
                      "that lasts until the run ends");
  EXPECT_REFUSED_WITH(with_failures({"{kind: reconfiguration, step: 0, extra_delay: -10us}"}),
                      "exp.yaml:12: fabric.failures[0].extra_delay must not be negative (got '-10us')");
  EXPECT_REFUSED_WITH(with_failures({"{kind: reconfiguration, step: -1, extra_delay: 10us}"}),
                      "exp.yaml:12: fabric.failures[0].step must be an integer >= 0 (got '-1')");
  // Whether step 1000 exists is the schedule's: the engine's to refuse.
  EXPECT_EQ(load_failures(with_failures({"{kind: reconfiguration, step: 1000, extra_delay: 0s}"}))
                .fabric.failures.entries[0]
                .step,
            1000);
}

TEST(FailureConfig, ALinkIsDegradedAndAStragglerSlowerNeverFaster) {
  EXPECT_REFUSED_WITH(with_failures({"{kind: link, gpu: 0, port: 0, bandwidth: 1Tbps}"}),
                      "exp.yaml:12: fabric.failures[0].bandwidth = 1Tbps is above fabric.bandwidth (800Gbps): a link "
                      "failure degrades a port, it never speeds it up");
  EXPECT_REFUSED_WITH(with_failures({"{kind: link, gpu: 0, port: 0, bandwidth: 0Gbps}"}),
                      "exp.yaml:12: fabric.failures[0].bandwidth: bandwidth '0Gbps' must be positive");
  EXPECT_EQ(load_failures(with_failures({"{kind: link, gpu: 0, port: 0, bandwidth: 800Gbps}"}))
                .fabric.failures.entries[0]
                .bandwidth.bps(),
            800000000000);
  // A GPU's bandwidth split over its 2 ports: a port's rate is half of it.
  EXPECT_REFUSED_WITH(
      fabric_with("  bandwidth_scope: gpu\n" + failure_list({"{kind: link, gpu: 0, port: 0, bandwidth: 500Gbps}"})),
      "exp.yaml:13: fabric.failures[0].bandwidth = 500Gbps is above a port's share of "
      "fabric.bandwidth (400Gbps, bandwidth_scope: gpu): a link failure degrades a port, it never "
      "speeds it up");
  EXPECT_REFUSED_WITH(with_failures({"{kind: straggler, gpu: 6, slowdown: 0.9}"}),
                      "exp.yaml:12: fabric.failures[0].slowdown must be a number in 1..1000000: its compute takes that "
                      "many times longer, never less (got '0.9')");
  EXPECT_REFUSED_WITH(with_failures({"{kind: straggler, gpu: 6, slowdown: .nan}"}),
                      "exp.yaml:12: fabric.failures[0].slowdown must be a number in 1..1000000: its compute takes that "
                      "many times longer, never less (got '.nan')");
  EXPECT_DOUBLE_EQ(
      load_failures(with_failures({"{kind: straggler, gpu: 6, slowdown: 1}"})).fabric.failures.entries[0].slowdown,
      1.0);
}

TEST(FailureConfig, AnMziFailureNeedsThePhysicalLayerAndAnMziOfIt) {
  EXPECT_REFUSED_WITH(with_failures({"{kind: mzi, server: 0, row: 4, col: 7}"}),
                      "exp.yaml:12: fabric.failures[0]: a mzi failure needs fabric.physical (the MZI meshes its "
                      "server, row and col name)");
  const std::string physical = kFailurePhysical;  // line 11; entries from line 13
  EXPECT_REFUSED_WITH(fabric_with(physical + failure_list({"{kind: mzi, server: 2, row: 0, col: 0}"})),
                      "exp.yaml:13: fabric.failures[0].server must be a server in 0..1 (fabric.physical.servers is "
                      "2x1, numbered row-major; got '2')");
  EXPECT_REFUSED_WITH(
      fabric_with(physical + failure_list({"{kind: mzi, server: 1, row: 8, col: 0}"})),
      "exp.yaml:13: fabric.failures[0].row must be a row in 0..7 (fabric.physical.mesh is 8x8; got '8')");
  EXPECT_REFUSED_WITH(fabric_with(physical + failure_list({"{kind: mzi, server: 1, row: 7, col: 9}"})),
                      "exp.yaml:13: fabric.failures[0].col must be a column in 0..7 (fabric.physical.mesh is 8x8; got "
                      "'9')");
}

TEST(FailureConfig, OverlappingEntriesAreRefusedNamingBoth) {
  EXPECT_REFUSED_WITH(
      with_failures({"{kind: port, gpu: 3, port: 0, at: 50us, for: 1ms}", "{kind: straggler, gpu: 3, slowdown: 2}",
                     "{kind: flap, gpu: 3, port: 0, at: 1ms, for: 5us}"}),
      "exp.yaml:14: fabric.failures[2] (flap) and fabric.failures[0] (port, exp.yaml:12) both take GPU 3's port 0 down "
      "at once, over [1ms, 1.005ms) and [50us, 1.05ms) (a port fails at most once at a time: merge them, or let one "
      "end before the other starts)");
  // `for` left out: down until the run ends, so any later entry overlaps.
  EXPECT_REFUSED_WITH(with_failures({"{kind: port, gpu: 1, port: 1}", "{kind: port, gpu: 1, port: 1, at: 1s}"}),
                      "exp.yaml:13: fabric.failures[1] (port) and fabric.failures[0] (port, exp.yaml:12) both take GPU "
                      "1's port 1 down at once, over [1s, the run's end) and [0ps, the run's end) (a port fails at "
                      "most once at a time: merge them, or let one end before the other starts)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: link, gpu: 2, port: 0, bandwidth: 100Gbps, for: 10us}",
                                     "{kind: link, gpu: 2, port: 0, bandwidth: 200Gbps, at: 5us}"}),
                      "exp.yaml:13: fabric.failures[1] (link) and fabric.failures[0] (link, exp.yaml:12) both degrade "
                      "GPU 2's port 0 at once, over [5us, the run's end) and [0ps, 10us) (one rate at a time: merge "
                      "them, or let one end before the other starts)");
  EXPECT_REFUSED_WITH(
      with_failures({"{kind: switch, switch: 1, at: 0s, for: 1us}", "{kind: switch, switch: 1, at: 1ms}"}),
      "exp.yaml:13: fabric.failures[1] (switch) and fabric.failures[0] (switch, exp.yaml:12) both fail "
      "optical switch 1 (one entry per switch)");
  EXPECT_REFUSED_WITH(
      with_failures({"{kind: straggler, gpu: 4, slowdown: 2}", "{kind: straggler, gpu: 4, slowdown: 3}"}),
      "exp.yaml:13: fabric.failures[1] (straggler) and fabric.failures[0] (straggler, exp.yaml:12) "
      "both slow GPU 4 (one slowdown per GPU)");
  EXPECT_REFUSED_WITH(with_failures({"{kind: reconfiguration, step: 2, extra_delay: 1us}",
                                     "{kind: reconfiguration, step: 2, extra_delay: 2us}"}),
                      "exp.yaml:13: fabric.failures[1] (reconfiguration) and fabric.failures[0] (reconfiguration, "
                      "exp.yaml:12) both slow the reconfiguration of step 2 (one entry per step)");
  EXPECT_REFUSED_WITH(
      fabric_with(std::string(kFailurePhysical) +
                  failure_list({"{kind: mzi, server: 1, row: 2, col: 3}", "{kind: mzi, server: 1, row: 2, col: 3}"})),
      "exp.yaml:14: fabric.failures[1] (mzi) and fabric.failures[0] (mzi, exp.yaml:13) both fail MZI "
      "(2, 3) of server 1 (one entry per MZI)");
}

TEST(FailureConfig, EntriesThatDoNotOverlapStandTogether) {
  const ExperimentConfig config = load_failures(with_failures({
      "{kind: port, gpu: 3, port: 0, at: 50us, for: 1ms}",
      "{kind: flap, gpu: 3, port: 0, at: 1050us, for: 5us}",  // starts as the first ends
      "{kind: flap, gpu: 3, port: 1, at: 60us, for: 5us}",    // another port
      "{kind: link, gpu: 3, port: 0, bandwidth: 100Gbps}",    // degraded while also down: both stand
      "{kind: link, gpu: 4, port: 0, bandwidth: 100Gbps, for: 5us}",
      "{kind: link, gpu: 4, port: 0, bandwidth: 200Gbps, at: 5us}",
      "{kind: switch, switch: 0}",
      "{kind: switch, switch: 1}",
  }));
  EXPECT_EQ(config.fabric.failures.entries.size(), 8u);
}

TEST(FailureConfig, SetOverridesReachEveryScalarKey) {
  const ExperimentConfig config =
      load_failures(kMinimalConfig, {"fabric.failure_detection=1us", "fabric.random_failures.port_mtbf=10h",
                                     "fabric.random_failures.seed=3", "fabric.random_failures.flap_mtbf=2d",
                                     "fabric.on_failure={type: abort_restart, restart_time: 5min}",
                                     "fabric.on_failure.watchdog_timeout=1min"});
  const FailureSpec& f = config.fabric.failures;
  EXPECT_EQ(f.detection, Time::us(1));
  ASSERT_TRUE(f.random.has_value());
  EXPECT_DOUBLE_EQ(f.random->port_mtbf_s, 36000.0);
  EXPECT_DOUBLE_EQ(*f.random->flap_mtbf_s, 172800.0);
  EXPECT_EQ(f.random->seed, uint64_t{3});
  EXPECT_EQ(f.on_failure, FailurePolicy::abort_restart);
  EXPECT_EQ(f.restart_time, Time::ms(300000));
  EXPECT_EQ(f.watchdog_timeout, Time::ms(60000));
  EXPECT_EQ(load_failures(kMinimalConfig, {"fabric.on_failure=wait"}).fabric.failures.on_failure, FailurePolicy::wait);

  const ExperimentConfig listed =
      load_failures(kMinimalConfig, {"fabric.failures=[{kind: straggler, gpu: 1, slowdown: 2}]"});
  ASSERT_EQ(listed.fabric.failures.entries.size(), 1u);
  EXPECT_EQ(listed.failure_locations[0], "--set fabric.failures=[{kind: straggler, gpu: 1, slowdown: 2}]");
  EXPECT_EQ(failure_refusal(kMinimalConfig, {"fabric.failures=[{kind: straggler, gpu: 4, slowdown: 2}]"}),
            "--set fabric.failures=[{kind: straggler, gpu: 4, slowdown: 2}]: fabric.failures[0].gpu must be a GPU in "
            "0..3 (fabric.gpus is 4; got '4')");
  EXPECT_EQ(failure_refusal(kMinimalConfig, {"fabric.failure_detection=soon"}),
            "--set fabric.failure_detection=soon: fabric.failure_detection: cannot parse time 'soon': no number "
            "(expected a number followed by one of: ps, ns, us, ms, s)");
}

#undef EXPECT_REFUSED_WITH

}  // namespace
}  // namespace photonsim
