// The fast engine against the reference model (tests/engine/reference_engine.h)
// on thousands of random small schedules: identical per-step times to the
// picosecond. Also: relabelling the GPUs never changes a time.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "core/rng.h"
#include "sim/engine/replayer.h"
#include "tests/engine/reference_engine.h"

namespace photonsim {
namespace {

template <typename T>
T pick(Rng& rng, std::initializer_list<T> choices) {
  return *(choices.begin() + rng.uniform(choices.size()));
}

struct Scenario {
  FabricSpec fabric;
  WorkloadSpec workload;
  ScheduleParts parts;
  std::string describe() const {
    std::ostringstream s;
    s << fabric.gpus << " GPUs, " << fabric.ports << " " << to_string(fabric.circuits) << " ports, "
      << fabric.bandwidth.bps() << " bps, latency " << fabric.latency.picoseconds() << " ps, "
      << to_string(fabric.router) << ", header " << fabric.header.count() << " B, packet " << fabric.packet.count()
      << " B, chunk " << workload.chunk.count() << " B, egress " << to_string(fabric.egress_order) << ", reconfig "
      << fabric.reconfig_delay.picoseconds() << " ps, overhead " << fabric.step_overhead.picoseconds()
      << " ps, initial topology " << parts.initial_topology << "\n";
    for (size_t t = 0; t < parts.topologies.size(); ++t) {
      s << "  topology " << t << ":";
      for (const Edge& e : parts.topologies[t].edges()) s << " " << e.first << "->" << e.second;
      s << "\n";
    }
    for (size_t i = 0; i < parts.steps.size(); ++i) {
      s << "  step " << i << " on topology " << parts.steps[i].topology << ":";
      for (const Transfer& t : parts.steps[i].transfers) {
        s << " [" << t.bytes.count() << " B";
        for (Node v : t.path) s << " " << v;
        s << "]";
      }
      s << "\n";
    }
    return s.str();
  }
};

// Random circuits within the port limits (parallel circuits allowed).
Topology random_topology(Rng& rng, const FabricSpec& fabric, int index) {
  const int n = fabric.gpus;
  std::vector<int> out(static_cast<size_t>(n)), in(static_cast<size_t>(n));
  std::vector<Edge> edges;
  const int attempts = static_cast<int>(rng.uniform(static_cast<uint64_t>(n * fabric.ports * 2))) + 1;
  for (int a = 0; a < attempts; ++a) {
    const auto u = static_cast<Node>(rng.uniform(static_cast<uint64_t>(n)));
    const auto v = static_cast<Node>(rng.uniform(static_cast<uint64_t>(n)));
    if (u == v) continue;
    if (fabric.circuits == CircuitKind::directed) {
      if (out[u] >= fabric.ports || in[v] >= fabric.ports) continue;
      ++out[u];
      ++in[v];
      edges.push_back({u, v});
    } else {
      // A bidirectional circuit uses one port at each end and carries both ways.
      if (out[u] >= fabric.ports || out[v] >= fabric.ports) continue;
      ++out[u];
      ++out[v];
      edges.push_back({u, v});
      edges.push_back({v, u});
    }
  }
  return Topology("random" + std::to_string(index), n, edges);
}

// A walk of 1..4 circuits from a random node, never revisiting a node.
std::optional<Transfer> random_transfer(Rng& rng, const Topology& topology, const FabricSpec& fabric) {
  if (topology.edges().empty()) return std::nullopt;
  const Edge& first = topology.edges()[rng.uniform(topology.edges().size())];
  std::vector<Node> path{first.first, first.second};
  const uint64_t hops = 1 + rng.uniform(4);
  while (path.size() - 1 < hops) {
    std::vector<Node> next;
    for (const Edge& e : topology.edges()) {
      if (e.first == path.back() && std::find(path.begin(), path.end(), e.second) == path.end()) {
        next.push_back(e.second);
      }
    }
    if (next.empty()) break;
    path.push_back(next[rng.uniform(next.size())]);
  }
  Transfer t;
  t.src = path.front();
  t.dst = path.back();
  t.path = path;
  // Sizes on a coarse grid make same-picosecond meetings common; some are not.
  const int64_t bytes =
      rng.uniform(3) == 0 ? static_cast<int64_t>(rng.uniform(3000)) : 4 * static_cast<int64_t>(1 + rng.uniform(300));
  t.bytes = Bytes(rng.uniform(20) == 0 ? 0 : bytes);
  (void)fabric;
  return t;
}

Scenario random_scenario(uint64_t seed) {
  Rng rng(seed);
  Scenario s;
  FabricSpec& f = s.fabric;
  f.gpus = 3 + static_cast<int>(rng.uniform(6));
  f.ports = 1 + static_cast<int>(rng.uniform(3));
  f.circuits = rng.uniform(3) == 0 ? CircuitKind::bidirectional : CircuitKind::directed;
  f.bandwidth = Bandwidth::bits_per_second(
      pick<int64_t>(rng, {8'000'000'000, 8'000'000'000, 800'000'000'000, 7'000'000'000, 3'000'000'000'000}));
  f.latency = pick<Time>(rng, {Time::zero(), Time::ns(1), Time::ns(4), Time::ns(7), Time::ns(500)});
  f.router = rng.uniform(2) == 0 ? RouterMode::cut_through : RouterMode::store_and_forward;
  f.header = Bytes(pick<int64_t>(rng, {0, 0, 1, 64, 500}));
  f.packet = Bytes(pick<int64_t>(rng, {0, 64, 100, 333, 1000}));
  f.reconfig_delay = pick<Time>(rng, {Time::zero(), Time::ns(3), Time::us(1)});
  f.step_overhead = pick<Time>(rng, {Time::zero(), Time::zero(), Time::ns(5)});
  f.egress_order = rng.uniform(2) == 0 ? EgressOrder::chunk : EgressOrder::fifo;
  s.workload.collective = Collective::alltoall;
  s.workload.message = Bytes(1000);
  s.workload.chunk = Bytes(pick<int64_t>(rng, {0, 150, 512, 1000}));

  ScheduleParts& p = s.parts;
  p.gpus = f.gpus;
  const int topologies = 1 + static_cast<int>(rng.uniform(3));
  for (int t = 0; t < topologies; ++t) p.topologies.push_back(random_topology(rng, f, t));
  p.initial_topology = rng.uniform(2) == 0 ? -1 : 0;
  const int steps = 1 + static_cast<int>(rng.uniform(4));
  for (int i = 0; i < steps; ++i) {
    Step step;
    step.topology = static_cast<int>(rng.uniform(static_cast<uint64_t>(topologies)));
    const int transfers = 1 + static_cast<int>(rng.uniform(6));
    for (int k = 0; k < transfers; ++k) {
      if (auto t = random_transfer(rng, p.topologies[static_cast<size_t>(step.topology)], f)) {
        step.transfers.push_back(*t);
      }
    }
    p.steps.push_back(step);
  }
  return s;
}

Schedule relabelled(const ScheduleParts& original, const std::vector<Node>& label) {
  ScheduleParts parts = original;
  for (Topology& t : parts.topologies) {
    std::vector<Edge> edges;
    for (const Edge& e : t.edges()) edges.push_back({label[e.first], label[e.second]});
    t = Topology(t.name(), t.gpus(), edges);
  }
  for (Step& step : parts.steps) {
    for (Transfer& t : step.transfers) {
      t.src = label[t.src];
      t.dst = label[t.dst];
      for (Node& v : t.path) v = label[v];
    }
  }
  return Schedule(std::move(parts));
}

constexpr uint64_t kCases = 3000;

TEST(ReferenceEngine, AgreesWithTheEngineToThePicosecondOnRandomSchedules) {
  uint64_t packet_hops = 0;
  for (uint64_t seed = 1; seed <= kCases; ++seed) {
    const Scenario s = random_scenario(seed);
    const Schedule schedule{ScheduleParts(s.parts)};
    const RunResult engine = Replayer(s.fabric, s.workload).replay(schedule);
    const std::vector<reference::StepTimes> expected =
        reference::ReferenceEngine(s.fabric, s.workload).replay(schedule);
    ASSERT_EQ(engine.steps.size(), expected.size()) << "seed " << seed;
    for (size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(engine.steps[i].begin, expected[i].begin)
          << "seed " << seed << ", step " << i << " begins differently\n"
          << s.describe();
      ASSERT_EQ(engine.steps[i].end, expected[i].end) << "seed " << seed << ", step " << i << " ends differently\n"
                                                      << s.describe();
    }
    packet_hops += engine.network.packet_hops;
  }
  EXPECT_GT(packet_hops, kCases * 10);  // the scenarios do move packets
  std::cout << packet_hops << " packet-hops in " << kCases << " schedules\n";
}

TEST(ReferenceEngine, RelabellingTheGpusChangesNoTime) {
  for (uint64_t seed = 1; seed <= kCases / 3; ++seed) {
    const Scenario s = random_scenario(seed);
    std::vector<Node> label(static_cast<size_t>(s.fabric.gpus));
    for (size_t v = 0; v < label.size(); ++v) label[v] = static_cast<Node>(v);
    Rng rng(seed ^ 0x5eed);
    for (size_t v = label.size(); v > 1; --v) std::swap(label[v - 1], label[rng.uniform(v)]);
    const RunResult a = Replayer(s.fabric, s.workload).replay(Schedule(ScheduleParts(s.parts)));
    const RunResult b = Replayer(s.fabric, s.workload).replay(relabelled(s.parts, label));
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (size_t i = 0; i < a.steps.size(); ++i) {
      ASSERT_EQ(a.steps[i].end, b.steps[i].end) << "seed " << seed << ", step " << i << "\n" << s.describe();
    }
  }
}

}  // namespace
}  // namespace photonsim
