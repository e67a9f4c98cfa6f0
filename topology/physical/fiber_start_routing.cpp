#include "topology/physical/fiber_start_routing.h"

#include <algorithm>
#include <limits>

namespace photonsim {

namespace {

std::vector<int> dimension_order_path(const ServerGrid& grid, int src, int dst) {
  std::vector<int> path{src};
  int r = src / grid.cols;
  int c = src % grid.cols;
  const int dr = dst / grid.cols;
  const int dc = dst % grid.cols;
  while (c != dc) {
    c += c < dc ? 1 : -1;
    path.push_back(r * grid.cols + c);
  }
  while (r != dr) {
    r += r < dr ? 1 : -1;
    path.push_back(r * grid.cols + c);
  }
  return path;
}

}  // namespace

FiberRouting fiber_start_routing(const ServerGrid& grid, const FiberEdges& edges,
                                 const std::vector<FiberDemand>& demands, int wavelengths,
                                 const std::vector<int>& existing, const std::vector<int>& lost) {
  FiberRouting routing;
  const size_t w_count = static_cast<size_t>(wavelengths);
  std::vector<int> per_wavelength(static_cast<size_t>(edges.slots()) * w_count, 0);
  for (size_t i = 0; i < demands.size(); ++i) {
    std::vector<int> path = dimension_order_path(grid, demands[i].src, demands[i].dst);
    std::vector<size_t> path_slots;
    for (size_t k = 0; k + 1 < path.size(); ++k) {
      path_slots.push_back(static_cast<size_t>(edges.slot(edges.index(path[k], path[k + 1]))));
    }
    size_t best = 0;
    int best_peak = std::numeric_limits<int>::max();
    for (size_t w = 0; w < std::min(w_count, i + 1); ++w) {
      int peak = 0;
      for (size_t s : path_slots) peak = std::max(peak, per_wavelength[s * w_count + w]);
      if (peak < best_peak) {
        best_peak = peak;
        best = w;
      }
    }
    for (size_t s : path_slots) ++per_wavelength[s * w_count + best];
    routing.paths.push_back(std::move(path));
    routing.wavelength.push_back(static_cast<int>(best));
  }
  fill_fiber_loads(edges, wavelengths, existing, routing, lost);
  return routing;
}

}  // namespace photonsim
