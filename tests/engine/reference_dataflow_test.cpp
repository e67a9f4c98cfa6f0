// The engine's dataflow execution and partial reconfiguration against the
// reference model (tests/engine/reference_dataflow.h) on thousands of random
// small schedules whose transfers carry blocks: identical per-step begin and
// end and completion to the picosecond, for (dataflow, all), (dataflow,
// changed), (barrier, changed) and (barrier, all), which also has its own
// reference (tests/engine/reference_engine.h). Under changed, directed circuits stay on one
// port per GPU and bidirectional ones take 1-3; some steps are empty and some
// topologies have no circuits (so some steps go from no circuits to none).
// The tests at the end pin three rules the engine once broke (this model
// found them): an empty transfer waits for its circuits; a step's own flows
// tie by their place, not the order they joined the network; a flow joining
// at t is waiting when ports choose at t; then the reference alone on
// docs/model.md's worked cases for bidirectional circuits on two ports and an
// empty step from no circuits to none.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "core/rng.h"
#include "sim/engine/schedule_execution.h"
#include "tests/engine/random_schedule.h"
#include "tests/engine/reference_dataflow.h"

namespace photonsim {
namespace {

using namespace random_schedules;

// Few block ids, so that a block often reaches a node in one step and leaves
// it in a later one.
constexpr uint32_t kBlocks = 4;

// Blocks (and sometimes a reduction) on every transfer, and sometimes an
// initial topology of its own or another step's; from its own generator so
// that the base scenario stays the reference engine test's.
void add_blocks_and_initial(Scenario& s, uint64_t seed) {
  Rng rng(seed ^ 0xb10c5);
  ScheduleParts& p = s.parts;
  p.blocks = kBlocks;
  std::vector<std::set<uint32_t>> held(static_cast<size_t>(s.fabric.gpus));  // delivered by earlier steps
  for (Step& step : p.steps) {
    std::vector<std::pair<Node, uint32_t>> arrivals;
    for (Transfer& t : step.transfers) {
      const uint64_t count = rng.uniform(4);  // 0: names no blocks
      for (uint64_t k = 0; k < count && k < 2; ++k) {
        const std::set<uint32_t>& in = held[t.src];
        uint32_t b = static_cast<uint32_t>(rng.uniform(kBlocks));
        if (!in.empty() && rng.uniform(2) == 0) b = *std::next(in.begin(), static_cast<long>(rng.uniform(in.size())));
        if (std::find(t.blocks.begin(), t.blocks.end(), b) == t.blocks.end()) t.blocks.push_back(b);
      }
      if (rng.uniform(4) == 0) t.op = TransferOp::reduce;
      for (uint32_t b : t.blocks) arrivals.emplace_back(t.dst, b);
    }
    for (const auto& [v, b] : arrivals) held[v].insert(b);
  }
  switch (rng.uniform(4)) {
    case 0:
      p.topologies.push_back(random_topology(rng, s.fabric, static_cast<int>(p.topologies.size())));
      p.initial_topology = static_cast<int>(p.topologies.size()) - 1;
      break;
    case 1:
      p.initial_topology = static_cast<int>(rng.uniform(p.topologies.size()));
      break;
    default:
      break;  // the base scenario's: none or topology 0
  }
}

// Sometimes (1 seed in 8 each) a step with no transfers, and a topology with
// no circuits, the steps on it left empty (half the time step 0's, so that
// with no initial circuits step 0 goes from no circuits to none); before the
// blocks are drawn, from a generator of its own.
void add_empty_steps(Scenario& s, uint64_t seed) {
  Rng rng(seed ^ 0xe3b7);
  ScheduleParts& p = s.parts;
  if (rng.uniform(8) == 0) p.steps[rng.uniform(p.steps.size())].transfers.clear();
  if (rng.uniform(8) == 0) {
    const size_t t =
        rng.uniform(2) == 0 ? static_cast<size_t>(p.steps.front().topology) : rng.uniform(p.topologies.size());
    p.topologies[t] = Topology("empty" + std::to_string(t), s.fabric.gpus, {});
    for (Step& step : p.steps) {
      if (static_cast<size_t>(step.topology) == t) step.transfers.clear();
    }
  }
}

struct Mode {
  SyncMode sync;
  ReconfigurationScope scope;
};

constexpr Mode kModes[] = {{SyncMode::dataflow, ReconfigurationScope::all},
                           {SyncMode::dataflow, ReconfigurationScope::changed},
                           {SyncMode::barrier, ReconfigurationScope::changed},
                           {SyncMode::barrier, ReconfigurationScope::all}};

constexpr uint64_t kCases = 4000;

TEST(ReferenceDataflow, AgreesWithTheEngineToThePicosecondOnRandomSchedules) {
  std::map<std::string, uint64_t> compared;
  std::map<std::string, std::vector<uint64_t>> failures;  // seeds, per mode
  std::map<std::string, std::string> first_failure;
  uint64_t uncovered = 0;
  uint64_t waits = 0;
  uint64_t overlapping = 0;
  uint64_t partial = 0;
  uint64_t bidirectional_multiport_changed = 0;  // schedules
  uint64_t empty_steps = 0;                      // steps, every mode
  uint64_t nothing_to_nothing = 0;               // steps from no circuits to none, under changed
  for (uint64_t seed = 1; seed <= kCases; ++seed) {
    for (const Mode& mode : kModes) {
      ScenarioShape shape;
      shape.min_gpus = 2;
      shape.max_gpus = 6;
      shape.max_ports = 3;
      Scenario s = random_scenario(seed, shape);
      if (mode.scope == ReconfigurationScope::changed && s.fabric.circuits == CircuitKind::directed) {
        // Directed circuits on k > 1 ports under changed need the switch
        // placement the reference does not model: one port (the same draws,
        // so the same scenario otherwise).
        shape.max_ports = 1;
        s = random_scenario(seed, shape);
      }
      add_empty_steps(s, seed);
      add_blocks_and_initial(s, seed);
      s.fabric.sync = mode.sync;
      s.fabric.reconfiguration = mode.scope;
      const Schedule schedule{ScheduleParts(s.parts)};
      if (!reference::ReferenceDataflow::covers(s.fabric, schedule)) {
        ++uncovered;
        continue;
      }
      const RunResult engine = run_schedule(s.fabric, s.workload, schedule);
      reference::DataflowTimes expected;
      try {
        expected = reference::ReferenceDataflow(s.fabric, s.workload).replay(schedule);
      } catch (const std::exception& e) {
        FAIL() << e.what() << "\nseed " << seed << "\n" << s.describe();
      }
      const std::string name = std::string(to_string(mode.sync)) + "/" + to_string(mode.scope);
      std::ostringstream both;  // for a failure message
      for (size_t i = 0; i < engine.steps.size() && i < expected.steps.size(); ++i) {
        both << "  step " << i << ": engine " << engine.steps[i].begin.picoseconds() << " .. "
             << engine.steps[i].end.picoseconds() << " ps, dark " << engine.steps[i].reconfiguration.picoseconds()
             << " ps; reference " << expected.steps[i].begin.picoseconds() << " .. "
             << expected.steps[i].end.picoseconds() << " ps, dark " << expected.reconfiguration[i].picoseconds()
             << " ps\n";
      }
      bool same = engine.steps.size() == expected.steps.size() && engine.completion == expected.completion;
      for (size_t i = 0; same && i < expected.steps.size(); ++i) {
        const StepResult& m = engine.steps[i];
        same = m.begin == expected.steps[i].begin && m.end == expected.steps[i].end &&
               m.reconfiguration == expected.reconfiguration[i];
        // The per-step breakdown describes what happened: no part negative.
        same =
            same && m.reconfiguration >= Time::zero() && m.measured() - m.reconfiguration - m.startup >= Time::zero();
        if (i > 0 && expected.steps[i].begin < expected.steps[i - 1].end) ++overlapping;
      }
      if (!same) {
        if (failures[name].empty())
          first_failure[name] = "seed " + std::to_string(seed) + "\n" + s.describe() + both.str();
        failures[name].push_back(seed);
        continue;
      }
      ++compared[name];
      for (size_t i = 1; mode.sync == SyncMode::dataflow && i < s.parts.steps.size(); ++i) {
        for (const Transfer& t : s.parts.steps[i].transfers) waits += t.blocks.empty() ? 0 : 1;
      }
      if (mode.scope == ReconfigurationScope::changed) {
        for (size_t i = 0; i < s.parts.steps.size(); ++i) partial += schedule.reconfigures_before(i) ? 1 : 0;
        if (s.fabric.circuits == CircuitKind::bidirectional && s.fabric.ports > 1) ++bidirectional_multiport_changed;
      }
      for (size_t i = 0; i < s.parts.steps.size(); ++i) {
        if (!s.parts.steps[i].transfers.empty()) continue;
        ++empty_steps;
        const int before = i > 0 ? s.parts.steps[i - 1].topology : s.parts.initial_topology;
        const bool from_nothing = before < 0 || s.parts.topologies[static_cast<size_t>(before)].empty();
        if (mode.scope != ReconfigurationScope::changed || !schedule.reconfigures_before(i) || !from_nothing ||
            !s.parts.topologies[static_cast<size_t>(s.parts.steps[i].topology)].empty())
          continue;
        // docs/model.md: from no circuits to none under changed nothing goes
        // dark; the step ends step_overhead after its begin, exposing no dark time.
        ++nothing_to_nothing;
        EXPECT_EQ(expected.steps[i].end, expected.steps[i].begin + s.fabric.step_overhead) << "seed " << seed;
        EXPECT_EQ(expected.reconfiguration[i], Time::zero()) << "seed " << seed;
      }
    }
  }
  for (const auto& [name, seeds] : failures) {
    std::ostringstream list;
    for (size_t i = 0; i < seeds.size() && i < 20; ++i) list << " " << seeds[i];
    ADD_FAILURE() << name << ": the engine and the reference disagree on " << seeds.size() << " schedules (seeds"
                  << list.str() << (seeds.size() > 20 ? " ..." : "") << "); the first:\n"
                  << first_failure[name];
  }
  for (const auto& [name, count] : compared) {
    EXPECT_GT(count, kCases / 2) << name;
    std::cout << name << ": " << count << " schedules\n";
  }
  EXPECT_GT(overlapping, kCases / 10);  // dataflow does overlap steps
  EXPECT_GT(bidirectional_multiport_changed, kCases / 4);
  EXPECT_GT(empty_steps, kCases / 4);
  EXPECT_GT(nothing_to_nothing, 20u);
  std::cout << uncovered << " not covered, " << overlapping << " overlapping steps, " << waits
            << " later-step transfers naming blocks, " << partial << " reconfigurations under changed, "
            << bidirectional_multiport_changed << " bidirectional schedules on 2-3 ports under changed, " << empty_steps
            << " empty steps, " << nothing_to_nothing << " of them from no circuits to none under changed\n";
}

// The cases where the engine once departed from docs/model.md, smallest found:
// the reference gives docs/model.md's answer (checked here against times worked
// by hand), and the engine must give the same.

FabricSpec small_fabric(int gpus, SyncMode sync, ReconfigurationScope scope) {
  FabricSpec f;
  f.gpus = gpus;
  f.ports = 1;
  f.bandwidth = Bandwidth::bits_per_second(8'000'000'000);  // 1 byte per ns
  f.latency = Time::zero();
  f.router = RouterMode::store_and_forward;
  f.sync = sync;
  f.reconfiguration = scope;
  return f;
}

WorkloadSpec small_workload() {
  WorkloadSpec w;
  w.collective = Collective::alltoall;
  w.message = Bytes(1000);
  return w;
}

Transfer move(Node src, Node dst, int64_t bytes, std::vector<uint32_t> blocks = {}) {
  Transfer t;
  t.src = src;
  t.dst = dst;
  t.path = {src, dst};
  t.bytes = Bytes(bytes);
  t.blocks = std::move(blocks);
  return t;
}

Schedule reference_dataflow_steps_on(int gpus, const Topology& topology, int initial,
                                     std::vector<std::vector<Transfer>> steps) {
  ScheduleParts p;
  p.gpus = gpus;
  p.blocks = kBlocks;
  p.topologies = {topology};
  p.initial_topology = initial;
  for (auto& transfers : steps) p.steps.push_back(Step{0, std::move(transfers)});
  return Schedule(std::move(p));
}

std::vector<int64_t> ends_ns(const std::vector<StepResult>& steps) {
  std::vector<int64_t> out;
  for (const StepResult& s : steps) out.push_back(s.end.picoseconds() / 1000);
  return out;
}
std::vector<int64_t> ends_ns(const std::vector<reference::StepTimes>& steps) {
  std::vector<int64_t> out;
  for (const reference::StepTimes& s : steps) out.push_back(s.end.picoseconds() / 1000);
  return out;
}

// 1. A transfer of 0 bytes over a circuit that is being set up: docs/model.md
// starts every transfer once its circuits are lit, so every mode ends this
// step at 3 + 5 ns (the engine once skipped the circuit wait for a transfer
// with no bytes and ended it at 5 ns).
struct EmptyTransfer {
  FabricSpec fabric(SyncMode sync, ReconfigurationScope scope) const {
    FabricSpec f = small_fabric(2, sync, scope);
    f.reconfig_delay = Time::ns(3);
    f.step_overhead = Time::ns(5);
    return f;
  }
  Schedule schedule() const {
    return reference_dataflow_steps_on(2, Topology("one", 2, {{0, 1}}), -1, {{move(0, 1, 0)}});
  }
};

TEST(ReferenceDataflow, AnEmptyTransferWaitsForItsCircuits) {
  const EmptyTransfer c;
  for (const Mode& mode : kModes) {
    const FabricSpec f = c.fabric(mode.sync, mode.scope);
    EXPECT_EQ(ends_ns(reference::ReferenceDataflow(f, small_workload()).replay(c.schedule()).steps),
              std::vector<int64_t>{8});
  }
  const FabricSpec barrier = c.fabric(SyncMode::barrier, ReconfigurationScope::all);
  EXPECT_EQ(ends_ns(run_schedule(barrier, small_workload(), c.schedule()).steps), std::vector<int64_t>{8});
}

TEST(ReferenceDataflow, TheEngineLetsAnEmptyTransferWaitForItsCircuits) {
  const EmptyTransfer c;
  for (const Mode& mode : kModes) {
    const FabricSpec f = c.fabric(mode.sync, mode.scope);
    EXPECT_EQ(ends_ns(run_schedule(f, small_workload(), c.schedule()).steps), std::vector<int64_t>{8})
        << to_string(mode.sync) << "/" << to_string(mode.scope);
  }
}

// 2. Own flows of one step tie by the transfer's place in the step (docs/model.md),
// not by the order they joined the network. Step 1's three 1-byte
// transfers 2 -> 0: place 0 (no blocks) waits for step 0's 0 -> 2 (into 2)
// until 1 ns, places 1 and 2 are released at 0. Port 2 -> 0 sends place 1
// at 0..1 ns; at 1 ns places 0 and 2 wait: place 0 goes first (1..2), place 2
// (block 1) at 2..3 ns, so step 2's 0 -> 2 carrying block 1 runs 3..4 ns.
// The engine sends place 2 first (it joined at 0) and ends step 2 at 3 ns.
// The rule is egress_order: chunk's; under fifo and chunk_fifo (the default)
// own packets count from their transfer's start, so place 2 does go first.
struct FlowTie {
  FabricSpec fabric() const {
    FabricSpec f = small_fabric(3, SyncMode::dataflow, ReconfigurationScope::all);
    f.egress_order = EgressOrder::chunk;
    return f;
  }
  Schedule schedule() const {
    return reference_dataflow_steps_on(
        3, Topology("pair", 3, {{0, 2}, {2, 0}}), 0,
        {{move(0, 2, 1)}, {move(2, 0, 1), move(2, 0, 1, {0}), move(2, 0, 1, {1})}, {move(0, 2, 1, {1})}});
  }
};

TEST(ReferenceDataflow, OwnFlowsTieByTheirPlaceInTheStep) {
  const FlowTie c;
  EXPECT_EQ(ends_ns(reference::ReferenceDataflow(c.fabric(), small_workload()).replay(c.schedule()).steps),
            (std::vector<int64_t>{1, 3, 4}));
}

TEST(ReferenceDataflow, TheEngineTiesOwnFlowsByTheirPlaceInTheStep) {
  const FlowTie c;
  EXPECT_EQ(ends_ns(run_schedule(c.fabric(), small_workload(), c.schedule()).steps), (std::vector<int64_t>{1, 3, 4}));
}

// 3. A transfer that joins the network at t is among what a port freed at t
// chooses from (docs/model.md: same-time events are all handled before any port
// chooses). 1 -> 0 (5 B) starts at 5 ns and lands at 10; step 1's 0 -> 1
// waits for it (it names no blocks) and joins at 15. Step 2's 0 -> 1 (20 B in
// packets of 10, block 0, released at 0) sends its first packet 5..15. At 15
// the port chooses step 1's packet (an earlier step) 15..16, then step 2's
// second 16..26. The engine chose at 15 before step 1's flow had joined and
// ends step 1 at 26.
struct SameTimeJoin {
  FabricSpec fabric() const {
    FabricSpec f = small_fabric(2, SyncMode::dataflow, ReconfigurationScope::all);
    f.step_overhead = Time::ns(5);
    f.packet = Bytes(10);
    return f;
  }
  Schedule schedule() const {
    return reference_dataflow_steps_on(2, Topology("pair", 2, {{0, 1}, {1, 0}}), 0,
                                       {{move(1, 0, 5)}, {move(0, 1, 1)}, {move(0, 1, 20, {0})}});
  }
};

TEST(ReferenceDataflow, APortChoosesAmongFlowsJoiningAtTheSameTime) {
  const SameTimeJoin c;
  EXPECT_EQ(ends_ns(reference::ReferenceDataflow(c.fabric(), small_workload()).replay(c.schedule()).steps),
            (std::vector<int64_t>{10, 16, 26}));
}

TEST(ReferenceDataflow, TheEnginesPortsChooseAmongFlowsJoiningAtTheSameTime) {
  const SameTimeJoin c;
  EXPECT_EQ(ends_ns(run_schedule(c.fabric(), small_workload(), c.schedule()).steps),
            (std::vector<int64_t>{10, 16, 26}));
}

// The reference alone on docs/model.md's worked cases for what it models
// beyond one port per GPU (the engine's own tests pin the same numbers:
// Reconfiguration.ABidirectionalCircuitIsKeptWhole,
// EmptyStep.FromNoCircuitsToNoneUnderChangedDarkensNothing).

// 4. Rule 6's worked case: 3 GPUs, 2 bidirectional ports, 1 B takes 1,000 ps,
// latency 0, reconfig_delay 1 us, changed, from no circuits; one 1 B
// transfer a step, 2 -> 0, 1 -> 2, 1 -> 2, on {0-2, 1-2}, {1-2 twice},
// {0-1, 1-2}. Step 0 places 0.0-2.0 and 1.0-2.1 (GPU.port), lit at 1 us;
// step 1 keeps 1.0-2.1 as circuit 0 (1.1-2.0 new, dark until 2,001,000);
// step 2 keeps 1.0-2.1 and puts 0-1 on 0.0-1.1.
// Barrier (docs/model.md): every step waits for the one before, on the
// circuit kept lit: 1,001,000 / 1,002,000 / 1,003,000 ps.
// Dataflow (worked from the same rules): every transfer is released at 0
// (none carries anything into its sender) and starts once its circuit is
// lit, at 1 us. Steps 1 and 2 both take the kept circuit 1.0-2.1, one
// physical circuit and so one queue: step 1's packet first (the earlier
// step) 1,000,000..1,001,000, step 2's 1,001,000..1,002,000.
struct KeptWhole {
  FabricSpec fabric(SyncMode sync) const {
    FabricSpec f = small_fabric(3, sync, ReconfigurationScope::changed);
    f.ports = 2;
    f.circuits = CircuitKind::bidirectional;
    f.reconfig_delay = Time::us(1);
    return f;
  }
  Schedule schedule() const {
    ScheduleParts p;
    p.gpus = 3;
    p.blocks = kBlocks;
    p.topologies = {Topology("0-2 1-2", 3, {{0, 2}, {2, 0}, {1, 2}, {2, 1}}),
                    Topology("1-2 twice", 3, {{1, 2}, {2, 1}, {1, 2}, {2, 1}}),
                    Topology("0-1 1-2", 3, {{0, 1}, {1, 0}, {1, 2}, {2, 1}})};
    p.initial_topology = -1;
    p.steps = {Step{0, {move(2, 0, 1)}}, Step{1, {move(1, 2, 1)}}, Step{2, {move(1, 2, 1)}}};
    return Schedule(std::move(p));
  }
};

std::vector<int64_t> ends_ps(const std::vector<reference::StepTimes>& steps) {
  std::vector<int64_t> out;
  for (const reference::StepTimes& s : steps) out.push_back(s.end.picoseconds());
  return out;
}

TEST(ReferenceDataflow, KeepsABidirectionalCircuitWhole) {
  const KeptWhole c;
  EXPECT_EQ(
      ends_ps(reference::ReferenceDataflow(c.fabric(SyncMode::barrier), small_workload()).replay(c.schedule()).steps),
      (std::vector<int64_t>{1'001'000, 1'002'000, 1'003'000}));
  EXPECT_EQ(
      ends_ps(reference::ReferenceDataflow(c.fabric(SyncMode::dataflow), small_workload()).replay(c.schedule()).steps),
      (std::vector<int64_t>{1'001'000, 1'001'000, 1'002'000}));
}

// 5. docs/model.md's empty-step bullet: with changed, from no circuits to a
// step with none nothing goes dark, so the step ends step_overhead after its
// begin (0 under either sync) and exposes no dark time; with all the fabric
// is dark for reconfig_delay first.
TEST(ReferenceDataflow, AnEmptyStepFromNoCircuitsToNoneUnderChangedTakesItsOverhead) {
  ScheduleParts p;
  p.gpus = 2;
  p.topologies = {Topology("none", 2, {})};
  p.initial_topology = -1;
  p.steps = {Step{0, {}}};
  const Schedule schedule(std::move(p));
  for (const SyncMode sync : {SyncMode::barrier, SyncMode::dataflow}) {
    for (const ReconfigurationScope scope : {ReconfigurationScope::changed, ReconfigurationScope::all}) {
      FabricSpec f = small_fabric(2, sync, scope);
      f.step_overhead = Time::ps(5);
      f.reconfig_delay = Time::us(1);
      const reference::DataflowTimes t = reference::ReferenceDataflow(f, small_workload()).replay(schedule);
      const bool changed = scope == ReconfigurationScope::changed;
      const std::string name = std::string(to_string(sync)) + "/" + to_string(scope);
      ASSERT_EQ(t.steps.size(), 1u) << name;
      EXPECT_EQ(t.steps[0].begin, Time::zero()) << name;
      EXPECT_EQ(t.steps[0].end, Time::ps(changed ? 5 : 1'000'005)) << name;
      EXPECT_EQ(t.reconfiguration[0], changed ? Time::zero() : Time::us(1)) << name;
      EXPECT_EQ(t.completion, t.steps[0].end) << name;
    }
  }
}

}  // namespace
}  // namespace photonsim
