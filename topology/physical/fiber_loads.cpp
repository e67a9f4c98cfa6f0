#include "topology/physical/fiber_loads.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace photonsim {

void check_fiber_inputs(const ServerGrid& grid, const std::vector<FiberDemand>& demands, int wavelengths,
                        const std::vector<int>& existing, const std::vector<int>& lost) {
  const size_t edges = server_edges(grid).size();
  if (wavelengths < 1) throw Error("fiber routing: wavelengths " + std::to_string(wavelengths) + " must be >= 1");
  if (!existing.empty() && existing.size() != edges) {
    throw Error("fiber routing: existing has " + std::to_string(existing.size()) + " entries, the " +
                std::to_string(grid.rows) + "x" + std::to_string(grid.cols) + " grid has " + std::to_string(edges) +
                " directed edges");
  }
  for (size_t e = 0; e < existing.size(); ++e) {
    if (existing[e] < 0) {
      throw Error("fiber routing: existing[" + std::to_string(e) + "] = " + std::to_string(existing[e]) + " < 0");
    }
  }
  if (!lost.empty() && lost.size() != edges) {
    throw Error("fiber routing: lost has " + std::to_string(lost.size()) + " entries, the " +
                std::to_string(grid.rows) + "x" + std::to_string(grid.cols) + " grid has " + std::to_string(edges) +
                " directed edges");
  }
  for (size_t e = 0; e < lost.size(); ++e) {
    if (lost[e] < 0)
      throw Error("fiber routing: lost[" + std::to_string(e) + "] = " + std::to_string(lost[e]) + " < 0");
  }
  for (size_t i = 0; i < demands.size(); ++i) {
    const FiberDemand& d = demands[i];
    const std::string name =
        "fiber demand " + std::to_string(i) + " (" + std::to_string(d.src) + " -> " + std::to_string(d.dst) + ")";
    if (!grid.contains(d.src) || !grid.contains(d.dst)) {
      throw Error(name + ": server outside the " + std::to_string(grid.rows) + "x" + std::to_string(grid.cols) +
                  " grid (ids 0.." + std::to_string(grid.servers() - 1) + ")");
    }
    if (d.src == d.dst) throw Error(name + ": src equals dst, a circuit needs two servers");
  }
}

FiberEdges::FiberEdges(const ServerGrid& grid, bool shared_directions)
    : edges_(server_edges(grid)), shared_(shared_directions) {
  out_begin_.assign(static_cast<size_t>(grid.servers()) + 1, 0);
  for (const auto& [u, v] : edges_) ++out_begin_[static_cast<size_t>(u) + 1];
  for (size_t u = 1; u < out_begin_.size(); ++u) out_begin_[u] += out_begin_[u - 1];
  if (!shared_) return;
  // Edges are sorted by (from, to): (u, v) with u < v precedes (v, u).
  link_.assign(edges_.size(), -1);
  int links = 0;
  for (size_t e = 0; e < edges_.size(); ++e) {
    const auto& [u, v] = edges_[e];
    if (u < v) {
      link_[e] = links++;
    } else {
      link_[e] = link_[static_cast<size_t>(index(v, u))];
    }
  }
}

std::vector<int> FiberEdges::slot_totals(const std::vector<int>& per_edge) const {
  if (!shared_ && !per_edge.empty()) return per_edge;
  std::vector<int> totals(static_cast<size_t>(slots()), 0);
  for (size_t e = 0; e < per_edge.size(); ++e) totals[static_cast<size_t>(slot(static_cast<int>(e)))] += per_edge[e];
  return totals;
}

std::vector<int> FiberEdges::slot_maxima(const std::vector<int>& per_edge) const {
  std::vector<int> maxima(static_cast<size_t>(slots()), 0);
  for (size_t e = 0; e < per_edge.size(); ++e) {
    int& m = maxima[static_cast<size_t>(slot(static_cast<int>(e)))];
    m = std::max(m, per_edge[e]);
  }
  return maxima;
}

int FiberEdges::index(int u, int v) const {
  for (int e = out_begin(u); e < out_begin(u + 1); ++e) {
    if (edges_[static_cast<size_t>(e)].second == v) return e;
  }
  return -1;
}

void fill_fiber_loads(const FiberEdges& edges, int wavelengths, const std::vector<int>& existing, FiberRouting& routing,
                      const std::vector<int>& lost) {
  const size_t count = static_cast<size_t>(edges.size());
  const size_t w_count = static_cast<size_t>(wavelengths);
  std::vector<int> per_wavelength(static_cast<size_t>(edges.slots()) * w_count, 0);
  routing.edge_load.assign(count, 0);
  for (size_t i = 0; i < routing.paths.size(); ++i) {
    const std::vector<int>& path = routing.paths[i];
    for (size_t k = 0; k + 1 < path.size(); ++k) {
      const int e = edges.index(path[k], path[k + 1]);
      ++per_wavelength[static_cast<size_t>(edges.slot(e)) * w_count + static_cast<size_t>(routing.wavelength[i])];
      ++routing.edge_load[static_cast<size_t>(e)];
    }
  }
  for (size_t e = 0; e < count && !existing.empty(); ++e) routing.edge_load[e] += existing[e];
  const std::vector<int> slot_load = edges.slot_totals(routing.edge_load);
  const std::vector<int> slot_lost = edges.slot_maxima(lost);
  routing.fibers = 0;
  for (size_t s = 0; s < slot_load.size(); ++s) {
    int fibers = ceil_div(slot_load[s], wavelengths);
    for (size_t w = 0; w < w_count; ++w) fibers = std::max(fibers, per_wavelength[s * w_count + w]);
    routing.fibers = std::max(routing.fibers, fibers + slot_lost[s]);
  }
}

}  // namespace photonsim
