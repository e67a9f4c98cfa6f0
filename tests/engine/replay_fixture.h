#pragma once
// Shared helpers for the engine tests: hand-built fabrics and schedules.
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/spec/workload_spec.h"
#include "schedules/model/schedule.h"
#include "sim/engine/schedule_execution.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim::testing_support {

inline FabricSpec fabric(int gpus, int ports = 1) {
  FabricSpec f = testing_support::test_fabric(gpus, ports);
  return f;
}

// An all-to-all of `message` per flow, in chunks of `chunk` (0 = one per transfer).
inline WorkloadSpec workload(Bytes message, Bytes chunk = Bytes(0)) {
  return with_chunk(test_workload(Collective::alltoall, message.count()), chunk.count());
}

inline Transfer transfer(Node src, Node dst, int64_t bytes, std::vector<Node> path = {}) {
  Transfer t;
  t.src = src;
  t.dst = dst;
  t.bytes = Bytes(bytes);
  t.path = std::move(path);
  return t;
}

// The path 0 -> 1 -> ... -> gpus-1.
inline Topology line(int gpus) {
  std::vector<Edge> edges;
  for (int u = 0; u + 1 < gpus; ++u) edges.push_back({static_cast<Node>(u), static_cast<Node>(u + 1)});
  return Topology("line", gpus, edges);
}

inline Schedule schedule(int gpus, std::vector<Topology> topologies, std::vector<Step> steps, int initial = 0) {
  ScheduleParts parts;
  parts.gpus = gpus;
  parts.topologies = std::move(topologies);
  parts.steps = std::move(steps);
  parts.initial_topology = initial;
  return Schedule(std::move(parts));
}

inline RunResult replay(const FabricSpec& f, const WorkloadSpec& w, const Schedule& s) { return run_schedule(f, w, s); }

}  // namespace photonsim::testing_support
