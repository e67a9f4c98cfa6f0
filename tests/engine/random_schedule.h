#pragma once
// Contract: the random small schedules the reference models are checked on
// (tests/engine/reference_engine_test.cpp, reference_dataflow_test.cpp): a
// seed gives one scenario (fabric, workload, schedule parts), the same on
// every platform; describe() prints it for a failure message.
#include <algorithm>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/rng.h"
#include "core/spec/workload_spec.h"
#include "schedules/model/schedule.h"

namespace photonsim::random_schedules {

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
      << fabric.reconfig_delay.picoseconds() << " ps, overhead " << fabric.step_overhead.picoseconds() << " ps, sync "
      << to_string(fabric.sync) << ", reconfiguration " << to_string(fabric.reconfiguration) << ", initial topology "
      << parts.initial_topology << "\n";
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
        if (!t.blocks.empty()) {
          s << " blocks";
          for (uint32_t b : t.blocks) s << " " << b;
          if (t.op == TransferOp::reduce) s << " reduce";
        }
        s << "]";
      }
      s << "\n";
    }
    return s.str();
  }
};

// The ranges random_scenario draws from; the defaults are the reference
// engine test's (changing them changes every scenario of a seed).
struct ScenarioShape {
  int min_gpus = 3;
  int max_gpus = 8;
  int max_ports = 3;
};

// Random circuits within the port limits (parallel circuits allowed).
inline Topology random_topology(Rng& rng, const FabricSpec& fabric, int index) {
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
inline std::optional<Transfer> random_transfer(Rng& rng, const Topology& topology, const FabricSpec& fabric) {
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

inline Scenario random_scenario(uint64_t seed, const ScenarioShape& shape = {}) {
  Rng rng(seed);
  Scenario s;
  FabricSpec& f = s.fabric;
  f.gpus = shape.min_gpus + static_cast<int>(rng.uniform(static_cast<uint64_t>(shape.max_gpus - shape.min_gpus + 1)));
  f.ports = 1 + static_cast<int>(rng.uniform(static_cast<uint64_t>(shape.max_ports)));
  f.circuits = rng.uniform(3) == 0 ? CircuitKind::bidirectional : CircuitKind::directed;
  f.bandwidth = Bandwidth::bits_per_second(
      pick<int64_t>(rng, {8'000'000'000, 8'000'000'000, 800'000'000'000, 7'000'000'000, 3'000'000'000'000}));
  f.latency = pick<Time>(rng, {Time::zero(), Time::ns(1), Time::ns(4), Time::ns(7), Time::ns(500)});
  f.router = rng.uniform(2) == 0 ? RouterMode::cut_through : RouterMode::store_and_forward;
  f.header = Bytes(pick<int64_t>(rng, {0, 0, 1, 64, 500}));
  f.packet = Bytes(pick<int64_t>(rng, {0, 64, 100, 333, 1000}));
  f.reconfig_delay = pick<Time>(rng, {Time::zero(), Time::ns(3), Time::us(1)});
  f.step_overhead = pick<Time>(rng, {Time::zero(), Time::zero(), Time::ns(5)});
  f.egress_order = pick<EgressOrder>(rng, {EgressOrder::chunk, EgressOrder::fifo, EgressOrder::chunk_fifo});
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

}  // namespace photonsim::random_schedules
