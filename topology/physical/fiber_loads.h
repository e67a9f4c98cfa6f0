#pragma once
// Contract: the pieces route_fibers and its helpers share: input checks (a
// photonsim::Error naming the demand or option), the index of a directed
// server edge, and the loads and fibers of a routing. Fibers of edge e with
// new circuits new(e, w) per wavelength and `existing` ones of free
// wavelengths: max(max_w new(e, w), ceil((sum_w new(e, w) + existing) / W)).
#include <cstddef>
#include <utility>
#include <vector>

#include "topology/physical/fiber_routing.h"
#include "topology/physical/server_grid.h"

namespace photonsim {

void check_fiber_inputs(const ServerGrid& grid, const std::vector<FiberDemand>& demands, int wavelengths,
                        const std::vector<int>& existing);

class FiberEdges {
 public:
  explicit FiberEdges(const ServerGrid& grid);
  const std::vector<std::pair<int, int>>& list() const { return edges_; }
  int size() const { return static_cast<int>(edges_.size()); }
  // Edges leaving server u are out_begin(u) .. out_begin(u + 1) - 1.
  int out_begin(int u) const { return out_begin_[static_cast<size_t>(u)]; }
  // -1 when u and v are not grid neighbours.
  int index(int u, int v) const;

 private:
  std::vector<std::pair<int, int>> edges_;
  std::vector<int> out_begin_;
};

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Fills routing.edge_load and routing.fibers from routing.paths and
// routing.wavelength.
void fill_fiber_loads(const FiberEdges& edges, int wavelengths, const std::vector<int>& existing,
                      FiberRouting& routing);

}  // namespace photonsim
