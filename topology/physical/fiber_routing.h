#pragma once
// Contract: PCCL's Algorithm 4 (Appendix B.1). Every optical circuit between
// GPUs on different servers runs through a path of servers; route_fibers
// picks every circuit's path (and, with W > 1 wavelengths per fiber, its
// wavelength, kept along the path) minimising z, the most circuits of one
// wavelength on one directed server edge, i.e. the fibers each edge needs.
// With options.shared_directions a link's two directed edges share its
// fibers instead: z is the most circuits of one wavelength on one link
// (server pair) counting both directions, the count PCCL's Figure 19 (7 and
// 31 fibers for 100 and 512 circuits on 8x8) appears to use.
// The ILP is the paper's: binary x[i][w][e], flow conservation per demand,
// integer z above every edge's (or link's) load, solved by COIN-OR CBC from
// a start routing (dimension-order paths improved by rip-up and reroute), so
// a time-limited run still returns a feasible routing; CBC is skipped when
// the start already meets fiber_cut_lower_bound.
// Existing circuits (options.existing, per directed edge) have free
// wavelengths: edge e needs max(max_w new(e, w), ceil((new(e) + existing(e))
// / W)) fibers; with shared directions link l the same with new(l, w) and
// existing(l) summed over both directions. Fibers lost (options.lost, per
// directed edge: fibers whose MZI at either end failed) count as taken on
// every wavelength: edge e needs that many more, z >= new(e, w) + lost(e) for
// every w (and, with existing circuits, W z >= new(e) + existing(e) + W
// lost(e)), so z <= fibers is exactly "every edge's circuits fit its working
// fibers"; with shared directions a link's lost fibers are the larger of its
// edges'. Paths, loads and fibers describe
// the returned paths (cycles the flow formulation may carry are dropped). Deterministic when CBC
// finishes within the time limit; throws photonsim::Error naming a demand
// with src == dst or a server outside the grid.
#include <cstdint>
#include <vector>

#include "topology/physical/server_grid.h"

namespace photonsim {

struct FiberDemand {
  int src = 0;  // servers, src != dst
  int dst = 0;
};

struct FiberRoutingOptions {
  int wavelengths = 1;             // per fiber; >= 1
  double time_limit_s = 10;        // CBC's wall-clock limit
  std::vector<int> existing;       // circuits already on each edge, server_edges order; empty = none
  std::vector<int> lost;           // fibers lost on each edge (failed MZIs), server_edges order; empty = none
  bool reroute = true;             // improve the start by rip-up and reroute; off leaves more to CBC (tests)
  bool shared_directions = false;  // a link's two directed edges share its fibers (z counts both ways)
  // Past this many ILP columns (demands x directed edges x wavelengths) CBC is
  // not run: the rerouted start is returned with the cut bound (the matrix
  // alone would take gigabytes; 4096 circuits on 32x32 servers is 16M).
  int64_t max_ilp_columns = 4'000'000;
};

struct FiberRouting {
  std::vector<std::vector<int>> paths;  // per demand: simple path of servers src..dst
  std::vector<int> wavelength;          // per demand, in [0, wavelengths)
  std::vector<int> edge_load;  // per directed edge (also when shared): circuits of all wavelengths incl. existing
  int fibers = 0;              // z of the returned routing: per directed edge, or per link when shared
  double best_bound = 0;       // CBC's lower bound on z (rounded up: z is integral), at least the cut bound
  bool optimal = false;        // fibers proven minimal
  bool ilp = false;            // CBC ran (the start routing had not met the cut bound)
  double solve_seconds = 0;    // wall clock of the whole call
};

FiberRouting route_fibers(const ServerGrid& grid, const std::vector<FiberDemand>& demands,
                          const FiberRoutingOptions& options = {});

// A lower bound on z: over cuts (S, V\S), ceil((demands from S to V\S +
// existing circuits on the cut's edges) / (directed edges from S to V\S *
// wavelengths)), and ceil(existing(e) / wavelengths) per edge. With shared
// directions (z per link): demands and existing circuits crossing the cut
// either way over (links across the cut * wavelengths), and per link its
// existing circuits of both directions. Every S for grids of at most 16
// servers; otherwise every row and column cut (both directions) and every
// single server (both directions).
int fiber_cut_lower_bound(const ServerGrid& grid, const std::vector<FiberDemand>& demands, int wavelengths = 1,
                          const std::vector<int>& existing = {}, bool shared_directions = false);

}  // namespace photonsim
