#include "schedules/cost/harvest/harvest_cycles.h"

namespace photonsim {

std::optional<HarvestCycles> HarvestCycles::of(const Topology& topology) {
  if (!topology.one_circuit_out_of_every_gpu()) return std::nullopt;
  const std::vector<Edge>& edges = topology.edges();
  const size_t n = edges.size();
  std::vector<uint32_t> in(n, 0);
  for (const Edge& e : edges) {
    if (++in[e.second] > 1) return std::nullopt;
  }
  // One circuit out of and into every GPU: following successors from any
  // unvisited GPU closes a cycle through it.
  constexpr uint32_t kUnset = UINT32_MAX;
  HarvestCycles c;
  c.cycle_.assign(n, kUnset);
  c.slot_.assign(n, 0);
  uint32_t next_slot = 0;
  for (Node start = 0; start < static_cast<Node>(n); ++start) {
    if (c.cycle_[start] != kUnset) continue;
    const auto id = static_cast<uint32_t>(c.begin_.size());
    c.begin_.push_back(next_slot);
    Node v = start;
    do {
      c.cycle_[v] = id;
      c.slot_[v] = next_slot++;
      v = edges[v].second;
    } while (v != start);
    c.length_.push_back(next_slot - c.begin_.back());
  }
  return c;
}

}  // namespace photonsim
