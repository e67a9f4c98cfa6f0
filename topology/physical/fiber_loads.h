#pragma once
// Contract: the pieces route_fibers and its helpers share: input checks (a
// photonsim::Error naming the demand or option), the index of a directed
// server edge, the slot whose fibers it uses, and the loads and fibers of a
// routing. A slot is one directed edge (the default), or with shared
// directions one link, i.e. both directed edges between two servers. Fibers
// of slot s with new circuits new(s, w) per wavelength (summed over its
// directed edges) and `existing` ones of free wavelengths:
// max(max_w new(s, w), ceil((sum_w new(s, w) + existing(s)) / W)), plus the
// fibers it lost (lost(s): per slot the largest of its edges').
#include <cstddef>
#include <utility>
#include <vector>

#include "topology/physical/fiber_routing.h"
#include "topology/physical/server_grid.h"

namespace photonsim {

void check_fiber_inputs(const ServerGrid& grid, const std::vector<FiberDemand>& demands, int wavelengths,
                        const std::vector<int>& existing, const std::vector<int>& lost = {});

class FiberEdges {
 public:
  explicit FiberEdges(const ServerGrid& grid, bool shared_directions = false);
  const std::vector<std::pair<int, int>>& list() const { return edges_; }
  int size() const { return static_cast<int>(edges_.size()); }
  // Edges leaving server u are out_begin(u) .. out_begin(u + 1) - 1.
  int out_begin(int u) const { return out_begin_[static_cast<size_t>(u)]; }
  // -1 when u and v are not grid neighbours.
  int index(int u, int v) const;
  bool shared_directions() const { return shared_; }
  // Slot of edge e: e itself, or with shared directions its link, numbered
  // in the order of the links' edges (u, v) with u < v.
  int slot(int e) const { return shared_ ? link_[static_cast<size_t>(e)] : e; }
  int slots() const { return shared_ ? static_cast<int>(edges_.size() / 2) : size(); }
  // Per-edge values (empty = all 0) summed into their slots.
  std::vector<int> slot_totals(const std::vector<int>& per_edge) const;
  // Per-edge values (empty = all 0), each slot the largest of its edges'.
  std::vector<int> slot_maxima(const std::vector<int>& per_edge) const;

 private:
  std::vector<std::pair<int, int>> edges_;
  std::vector<int> out_begin_;
  bool shared_ = false;
  std::vector<int> link_;  // per edge
};

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Fills routing.edge_load and routing.fibers from routing.paths and
// routing.wavelength (`lost`: per edge, as FiberRoutingOptions::lost).
void fill_fiber_loads(const FiberEdges& edges, int wavelengths, const std::vector<int>& existing, FiberRouting& routing,
                      const std::vector<int>& lost = {});

}  // namespace photonsim
