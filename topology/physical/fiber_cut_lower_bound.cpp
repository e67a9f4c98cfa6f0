#include <algorithm>
#include <cstdint>

#include "topology/physical/fiber_loads.h"
#include "topology/physical/fiber_routing.h"

namespace photonsim {

namespace {

constexpr int kExhaustiveServers = 16;

// Every circuit from S to V\S crosses one of the cut's edges, each carrying
// at most `wavelengths` circuits per fiber. With shared directions the
// circuits from V\S to S share the fibers of the same links (one per edge
// from S to V\S).
int cut_bound(const FiberEdges& edges, const std::vector<FiberDemand>& demands, int wavelengths,
              const std::vector<int>& existing, const std::vector<char>& in_s) {
  const bool both = edges.shared_directions();
  int crossing = 0;
  for (const FiberDemand& d : demands) {
    const bool out = in_s[static_cast<size_t>(d.src)] && !in_s[static_cast<size_t>(d.dst)];
    const bool in = !in_s[static_cast<size_t>(d.src)] && in_s[static_cast<size_t>(d.dst)];
    if (out || (both && in)) ++crossing;
  }
  int cut_edges = 0;
  for (size_t e = 0; e < edges.list().size(); ++e) {
    const auto& [u, v] = edges.list()[e];
    const bool out = in_s[static_cast<size_t>(u)] && !in_s[static_cast<size_t>(v)];
    const bool in = !in_s[static_cast<size_t>(u)] && in_s[static_cast<size_t>(v)];
    if (out) ++cut_edges;
    if (!existing.empty() && (out || (both && in))) crossing += existing[e];
  }
  return cut_edges == 0 ? 0 : ceil_div(crossing, cut_edges * wavelengths);
}

}  // namespace

int fiber_cut_lower_bound(const ServerGrid& grid, const std::vector<FiberDemand>& demands, int wavelengths,
                          const std::vector<int>& existing, bool shared_directions) {
  check_fiber_inputs(grid, demands, wavelengths, existing);
  const FiberEdges edges(grid, shared_directions);
  const int n = grid.servers();
  int bound = 0;
  if (!existing.empty()) {
    for (int load : edges.slot_totals(existing)) bound = std::max(bound, ceil_div(load, wavelengths));
  }
  std::vector<char> in_s(static_cast<size_t>(n), 0);
  auto consider = [&]() { bound = std::max(bound, cut_bound(edges, demands, wavelengths, existing, in_s)); };
  // Both sides of a cut: S and its complement.
  auto consider_both = [&]() {
    consider();
    for (char& b : in_s) b = !b;
    consider();
  };
  if (n <= kExhaustiveServers) {
    for (uint32_t mask = 1; mask + 1 < (1u << n); ++mask) {
      for (int v = 0; v < n; ++v) in_s[static_cast<size_t>(v)] = (mask >> v) & 1u;
      consider();
    }
    return bound;
  }
  for (int k = 1; k < grid.rows; ++k) {
    for (int v = 0; v < n; ++v) in_s[static_cast<size_t>(v)] = v / grid.cols < k;
    consider_both();
  }
  for (int k = 1; k < grid.cols; ++k) {
    for (int v = 0; v < n; ++v) in_s[static_cast<size_t>(v)] = v % grid.cols < k;
    consider_both();
  }
  for (int s = 0; s < n; ++s) {
    for (int v = 0; v < n; ++v) in_s[static_cast<size_t>(v)] = v == s;
    consider_both();
  }
  return bound;
}

}  // namespace photonsim
