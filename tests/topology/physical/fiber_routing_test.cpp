#include "topology/physical/fiber_routing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "topology/physical/server_grid.h"

namespace photonsim {
namespace {

std::vector<FiberDemand> random_demands(const ServerGrid& grid, int count, uint64_t seed) {
  Rng rng(seed);
  const auto servers = static_cast<uint64_t>(grid.servers());
  std::vector<FiberDemand> demands;
  while (static_cast<int>(demands.size()) < count) {
    const auto src = static_cast<int>(rng.uniform(servers));
    const auto dst = static_cast<int>(rng.uniform(servers));
    if (src != dst) demands.push_back({src, dst});
  }
  return demands;
}

int edge_index(const std::vector<std::pair<int, int>>& edges, int u, int v) {
  const auto it = std::find(edges.begin(), edges.end(), std::make_pair(u, v));
  return it == edges.end() ? -1 : static_cast<int>(it - edges.begin());
}

// Where edge e's circuits count towards z: e, or with shared directions the
// lower index of e and its reverse (one entry per link).
size_t fiber_slot(const std::vector<std::pair<int, int>>& edges, size_t e, bool shared) {
  if (!shared) return e;
  const auto& [u, v] = edges[e];
  return std::min(e, static_cast<size_t>(edge_index(edges, v, u)));
}

// Paths simple, from src to dst over grid edges; edge_load and fibers
// recomputed here from the paths (fibers per link with shared directions).
void expect_valid(const ServerGrid& grid, const std::vector<FiberDemand>& demands, const FiberRoutingOptions& options,
                  const FiberRouting& routing) {
  const auto edges = server_edges(grid);
  ASSERT_EQ(routing.paths.size(), demands.size());
  ASSERT_EQ(routing.wavelength.size(), demands.size());
  std::vector<int> load(edges.size(), 0);
  std::vector<std::vector<int>> per_wavelength(edges.size(),
                                               std::vector<int>(static_cast<size_t>(options.wavelengths)));
  for (size_t i = 0; i < demands.size(); ++i) {
    const std::vector<int>& path = routing.paths[i];
    ASSERT_GE(path.size(), 2u) << "demand " << i;
    EXPECT_EQ(path.front(), demands[i].src) << "demand " << i;
    EXPECT_EQ(path.back(), demands[i].dst) << "demand " << i;
    std::vector<int> sorted = path;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "demand " << i << " revisits";
    const int w = routing.wavelength[i];
    ASSERT_GE(w, 0);
    ASSERT_LT(w, options.wavelengths);
    for (size_t k = 0; k + 1 < path.size(); ++k) {
      const int e = edge_index(edges, path[k], path[k + 1]);
      ASSERT_GE(e, 0) << "demand " << i << ": " << path[k] << " -> " << path[k + 1] << " not neighbours";
      ++load[static_cast<size_t>(e)];
      ++per_wavelength[fiber_slot(edges, static_cast<size_t>(e), options.shared_directions)][static_cast<size_t>(w)];
    }
  }
  std::vector<int> slot_load(edges.size(), 0);
  for (size_t e = 0; e < edges.size(); ++e) {
    if (!options.existing.empty()) load[e] += options.existing[e];
    slot_load[fiber_slot(edges, e, options.shared_directions)] += load[e];
  }
  int fibers = 0;
  for (size_t e = 0; e < edges.size(); ++e) {
    fibers = std::max(fibers, (slot_load[e] + options.wavelengths - 1) / options.wavelengths);
    for (int c : per_wavelength[e]) fibers = std::max(fibers, c);
  }
  EXPECT_EQ(routing.edge_load, load);
  EXPECT_EQ(routing.fibers, fibers);
  EXPECT_LE(routing.best_bound, routing.fibers);
  EXPECT_EQ(routing.optimal, routing.best_bound >= routing.fibers);
}

std::vector<std::vector<int>> simple_paths(const ServerGrid& grid, int src, int dst) {
  const auto edges = server_edges(grid);
  std::vector<std::vector<int>> out;
  std::vector<int> path{src};
  std::vector<char> seen(static_cast<size_t>(grid.servers()), 0);
  seen[static_cast<size_t>(src)] = 1;
  std::function<void()> extend = [&]() {
    if (path.back() == dst) {
      out.push_back(path);
      return;
    }
    for (const auto& [u, v] : edges) {
      if (u != path.back() || seen[static_cast<size_t>(v)]) continue;
      seen[static_cast<size_t>(v)] = 1;
      path.push_back(v);
      extend();
      path.pop_back();
      seen[static_cast<size_t>(v)] = 0;
    }
  };
  extend();
  return out;
}

// The least z over every choice of a simple path and a wavelength per
// demand, by depth-first search with pruning at the best z so far; z per
// directed edge, or per link with shared directions.
int exhaustive_fibers(const ServerGrid& grid, const std::vector<FiberDemand>& demands, int wavelengths,
                      bool shared = false) {
  const auto edges = server_edges(grid);
  std::vector<std::vector<std::vector<int>>> choices;  // [demand][path] = slot ids
  for (const FiberDemand& d : demands) {
    choices.emplace_back();
    for (const auto& path : simple_paths(grid, d.src, d.dst)) {
      std::vector<int> ids;
      for (size_t k = 0; k + 1 < path.size(); ++k) {
        const auto e = static_cast<size_t>(edge_index(edges, path[k], path[k + 1]));
        ids.push_back(static_cast<int>(fiber_slot(edges, e, shared)));
      }
      choices.back().push_back(ids);
    }
  }
  std::vector<int> load(edges.size() * static_cast<size_t>(wavelengths), 0);
  int best = static_cast<int>(demands.size()) + 1;
  std::function<void(size_t, int)> place = [&](size_t i, int z) {
    if (z >= best) return;
    if (i == demands.size()) {
      best = z;
      return;
    }
    for (const auto& ids : choices[i]) {
      for (int w = 0; w < wavelengths; ++w) {
        int peak = z;
        for (int e : ids) {
          const size_t slot = static_cast<size_t>(e * wavelengths + w);
          peak = std::max(peak, ++load[slot]);
        }
        place(i + 1, peak);
        for (int e : ids) --load[static_cast<size_t>(e * wavelengths + w)];
      }
    }
  };
  place(0, 0);
  return best;
}

TEST(FiberRouting, ServerEdgesJoinGridNeighboursBothWays) {
  const auto edges = server_edges({2, 3});
  // 2 rows of 2 horizontal pairs, 3 vertical pairs, each both ways.
  ASSERT_EQ(edges.size(), 14u);
  EXPECT_TRUE(std::is_sorted(edges.begin(), edges.end()));
  for (const auto& [u, v] : edges) {
    const int dr = u / 3 - v / 3;
    const int dc = u % 3 - v % 3;
    EXPECT_EQ(dr * dr + dc * dc, 1) << u << " -> " << v;
    EXPECT_NE(edge_index(edges, v, u), -1);
  }
  EXPECT_TRUE(server_edges({1, 1}).empty());
  EXPECT_THROW(server_edges({0, 3}), Error);
}

// Routes `demands` with and without rip-up-and-reroute; both must reach
// `optimum` and prove it. Returns 1 when CBC ran without the reroute pass.
int expect_optimum(const ServerGrid& grid, const std::vector<FiberDemand>& demands, int wavelengths, bool shared,
                   int optimum) {
  FiberRoutingOptions options;
  options.wavelengths = wavelengths;
  options.shared_directions = shared;
  int ilp_runs = 0;
  for (const bool reroute : {false, true}) {
    options.reroute = reroute;
    const FiberRouting routing = route_fibers(grid, demands, options);
    expect_valid(grid, demands, options, routing);
    EXPECT_EQ(routing.fibers, optimum) << "reroute " << reroute << " shared " << shared;
    EXPECT_TRUE(routing.optimal);
    if (!reroute) ilp_runs += routing.ilp ? 1 : 0;
  }
  return ilp_runs;
}

TEST(FiberRouting, IlpOptimumEqualsExhaustiveSearchOnSmallGrids) {
  int ilp_runs[2] = {0, 0};  // per model: one-way, shared directions
  int differs = 0;
  for (const ServerGrid grid : {ServerGrid{1, 3}, ServerGrid{2, 2}, ServerGrid{2, 3}, ServerGrid{3, 3}}) {
    for (uint64_t seed = 1; seed <= 15; ++seed) {
      const int count = 1 + static_cast<int>(seed % 5);
      const auto demands = random_demands(grid, count, seed * 7 + static_cast<uint64_t>(grid.cols));
      SCOPED_TRACE(std::to_string(grid.rows) + "x" + std::to_string(grid.cols) + " seed " + std::to_string(seed));
      const int one_way = exhaustive_fibers(grid, demands, 1);
      for (const bool shared : {false, true}) {
        const int optimum = shared ? exhaustive_fibers(grid, demands, 1, true) : one_way;
        differs += optimum != one_way;
        EXPECT_LE(fiber_cut_lower_bound(grid, demands, 1, {}, shared), optimum) << "shared " << shared;
        ilp_runs[shared] += expect_optimum(grid, demands, 1, shared, optimum);
      }
    }
  }
  // The cases must exercise CBC, not only the start routing at the cut
  // bound, and shared directions must matter in some of them.
  EXPECT_GE(ilp_runs[0], 8);
  EXPECT_GE(ilp_runs[1], 8);
  EXPECT_GE(differs, 8);
}

TEST(FiberRouting, IlpOptimumEqualsExhaustiveSearchWithTwoWavelengths) {
  int ilp_runs[2] = {0, 0};  // per model: one-way, shared directions
  for (const ServerGrid grid : {ServerGrid{1, 3}, ServerGrid{2, 2}, ServerGrid{2, 3}}) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      const auto demands = random_demands(grid, 3 + static_cast<int>(seed % 4), seed * 11);
      SCOPED_TRACE(std::to_string(grid.rows) + "x" + std::to_string(grid.cols) + " seed " + std::to_string(seed));
      for (const bool shared : {false, true}) {
        const int optimum = exhaustive_fibers(grid, demands, 2, shared);
        EXPECT_LE(fiber_cut_lower_bound(grid, demands, 2, {}, shared), optimum) << "shared " << shared;
        ilp_runs[shared] += expect_optimum(grid, demands, 2, shared, optimum);
      }
    }
  }
  EXPECT_GE(ilp_runs[0], 5);
  EXPECT_GE(ilp_runs[1], 5);
}

TEST(FiberRouting, NeverBelowTheCutBound) {
  struct Case {
    ServerGrid grid;
    int demands;
  };
  for (const Case& c : {Case{{2, 3}, 6}, Case{{3, 3}, 12}, Case{{4, 4}, 30}, Case{{5, 5}, 40}, Case{{8, 8}, 100}}) {
    for (uint64_t seed = 1; seed <= (c.grid.servers() > 16 ? 1u : 3u); ++seed) {
      const auto demands = random_demands(c.grid, c.demands, seed);
      SCOPED_TRACE(std::to_string(c.grid.rows) + "x" + std::to_string(c.grid.cols) + " seed " + std::to_string(seed));
      for (const bool shared : {false, true}) {
        const int cut = fiber_cut_lower_bound(c.grid, demands, 1, {}, shared);
        EXPECT_GT(cut, 0);
        FiberRoutingOptions options;
        options.time_limit_s = 2;
        options.shared_directions = shared;
        for (const bool reroute : {false, true}) {
          options.reroute = reroute;
          const FiberRouting routing = route_fibers(c.grid, demands, options);
          expect_valid(c.grid, demands, options, routing);
          EXPECT_GE(routing.fibers, cut) << "reroute " << reroute << " shared " << shared;
          EXPECT_GE(routing.best_bound, cut);
        }
      }
    }
  }
}

// CBC stopped by its time limit must return its best, never crash: with its
// preprocessing on, a limit that ran out inside it crashed in
// CglPreProcess::postProcess (seen when the suite ran on a loaded machine).
TEST(FiberRouting, ATimeLimitThatRunsOutAtOnceKeepsTheStart) {
  const ServerGrid grid{8, 8};
  const auto demands = random_demands(grid, 100, 1);
  for (const double seconds : {0.0, 1e-3, 0.05, 0.3}) {
    FiberRoutingOptions options;
    options.time_limit_s = seconds;
    options.reroute = false;  // so that CBC runs
    const FiberRouting routing = route_fibers(grid, demands, options);
    expect_valid(grid, demands, options, routing);
    EXPECT_TRUE(routing.ilp) << seconds;
    EXPECT_GE(routing.fibers, fiber_cut_lower_bound(grid, demands)) << seconds;
  }
}

TEST(FiberRouting, CutLowerBoundOnHandMadeCases) {
  // Three circuits 0 -> 2 on a line all cross edge (1, 2).
  EXPECT_EQ(fiber_cut_lower_bound({1, 3}, {{0, 2}, {0, 2}, {0, 2}}), 3);
  EXPECT_EQ(fiber_cut_lower_bound({1, 3}, {{0, 2}, {0, 2}, {0, 2}}, 2), 2);
  // The way back is a different fiber.
  EXPECT_EQ(fiber_cut_lower_bound({1, 3}, {{0, 2}, {2, 0}}), 1);
  // Existing circuits on the cut count too: 3 + 1 over one edge.
  EXPECT_EQ(fiber_cut_lower_bound({1, 2}, {{0, 1}}, 1, {3, 0}), 4);
  EXPECT_EQ(fiber_cut_lower_bound({1, 2}, {}, 2, {0, 5}), 3);
  // 5x5 (row and column cuts only): 11 circuits from column 0 to column 4
  // cross the 5 edges of every column cut.
  std::vector<FiberDemand> demands;
  for (int k = 0; k < 11; ++k) demands.push_back({(k % 5) * 5, (k % 5) * 5 + 4});
  EXPECT_EQ(fiber_cut_lower_bound({5, 5}, demands), 3);
  // A corner server has two edges out: 5 circuits from it need 3 fibers.
  EXPECT_EQ(fiber_cut_lower_bound({5, 5}, {{0, 24}, {0, 23}, {0, 22}, {0, 21}, {0, 20}}), 3);
}

TEST(FiberRouting, SharedDirectionsCountBothWaysOfALink) {
  // Edge order of 1x2: (0,1) (1,0).
  const ServerGrid pair{1, 2};
  const std::vector<FiberDemand> both_ways{{0, 1}, {1, 0}};
  FiberRoutingOptions one_way;
  const FiberRouting separate = route_fibers(pair, both_ways, one_way);
  expect_valid(pair, both_ways, one_way, separate);
  EXPECT_EQ(separate.fibers, 1);
  FiberRoutingOptions shared;
  shared.shared_directions = true;
  const FiberRouting together = route_fibers(pair, both_ways, shared);
  expect_valid(pair, both_ways, shared, together);
  EXPECT_EQ(together.fibers, 2);
  EXPECT_TRUE(together.optimal);
  EXPECT_EQ(together.edge_load, (std::vector<int>{1, 1}));  // still per directed edge
  EXPECT_EQ(fiber_cut_lower_bound(pair, both_ways), 1);
  EXPECT_EQ(fiber_cut_lower_bound(pair, both_ways, 1, {}, true), 2);
  // Two wavelengths: the two circuits share one fiber.
  shared.wavelengths = 2;
  EXPECT_EQ(route_fibers(pair, both_ways, shared).fibers, 1);
  EXPECT_EQ(fiber_cut_lower_bound(pair, both_ways, 2, {}, true), 1);
  // Existing circuits of both directions fill the link: 3 + 1 + 1 new.
  FiberRoutingOptions loaded;
  loaded.shared_directions = true;
  loaded.existing = {3, 1};
  const std::vector<FiberDemand> one{{0, 1}};
  const FiberRouting full = route_fibers(pair, one, loaded);
  expect_valid(pair, one, loaded, full);
  EXPECT_EQ(full.fibers, 5);
  EXPECT_EQ(full.edge_load, (std::vector<int>{4, 1}));
  EXPECT_EQ(fiber_cut_lower_bound(pair, one, 1, loaded.existing, true), 5);
  EXPECT_EQ(fiber_cut_lower_bound(pair, {}, 2, loaded.existing, true), 2);
  loaded.wavelengths = 2;
  EXPECT_EQ(route_fibers(pair, one, loaded).fibers, 3);
  // A square: four circuits 0 -> 1 and four 1 -> 0 spread over both routes
  // between 0 and 1, four per link counting both directions.
  const ServerGrid square{2, 2};
  std::vector<FiberDemand> swap;
  for (int k = 0; k < 4; ++k) {
    swap.push_back({0, 1});
    swap.push_back({1, 0});
  }
  FiberRoutingOptions plain_square;
  plain_square.reroute = false;
  EXPECT_EQ(route_fibers(square, swap, plain_square).fibers, 2);
  plain_square.shared_directions = true;
  const FiberRouting spread = route_fibers(square, swap, plain_square);
  expect_valid(square, swap, plain_square, spread);
  EXPECT_EQ(spread.fibers, 4);
  EXPECT_TRUE(spread.optimal);
}

TEST(FiberRouting, TwoWavelengthsHalveTheFibersOfAForcedEdge) {
  const ServerGrid line{1, 3};
  const std::vector<FiberDemand> demands{{0, 2}, {0, 2}, {1, 2}, {0, 2}};
  FiberRoutingOptions one;
  const FiberRouting single = route_fibers(line, demands, one);
  expect_valid(line, demands, one, single);
  EXPECT_EQ(single.fibers, 4);
  FiberRoutingOptions two;
  two.wavelengths = 2;
  const FiberRouting dual = route_fibers(line, demands, two);
  expect_valid(line, demands, two, dual);
  EXPECT_EQ(dual.fibers, 2);
  EXPECT_EQ(dual.edge_load, single.edge_load);
  // On (1, 2) each wavelength carries two circuits.
  EXPECT_EQ(std::count(dual.wavelength.begin(), dual.wavelength.end(), 0), 2);
  // A 2x2 square: two of four circuits 0 -> 1 detour over 0-2-3-1.
  const ServerGrid square{2, 2};
  const std::vector<FiberDemand> parallel{{0, 1}, {0, 1}, {0, 1}, {0, 1}};
  EXPECT_EQ(route_fibers(square, parallel, one).fibers, 2);
  EXPECT_EQ(route_fibers(square, parallel, two).fibers, 1);
}

TEST(FiberRouting, ExistingCircuitsCount) {
  // Edge order of 1x3: (0,1) (1,0) (1,2) (2,1).
  const ServerGrid line{1, 3};
  FiberRoutingOptions options;
  options.existing = {3, 0, 1, 0};
  const std::vector<FiberDemand> demands{{0, 2}};
  const FiberRouting routing = route_fibers(line, demands, options);
  expect_valid(line, demands, options, routing);
  EXPECT_EQ(routing.fibers, 4);
  EXPECT_EQ(routing.edge_load, (std::vector<int>{4, 0, 2, 0}));
  // On a square the circuit detours around the loaded edge (0, 1).
  const ServerGrid square{2, 2};
  const auto edges = server_edges(square);
  FiberRoutingOptions loaded;
  loaded.existing.assign(edges.size(), 0);
  loaded.existing[static_cast<size_t>(edge_index(edges, 0, 1))] = 2;
  const std::vector<FiberDemand> across{{0, 1}, {0, 1}};
  const FiberRouting detour = route_fibers(square, across, loaded);
  expect_valid(square, across, loaded, detour);
  EXPECT_EQ(detour.fibers, 2);
  EXPECT_EQ(detour.paths[0], (std::vector<int>{0, 2, 3, 1}));
  EXPECT_EQ(detour.paths[1], (std::vector<int>{0, 2, 3, 1}));
  // Existing circuits have free wavelengths: 3 + 1 on one edge in 2 fibers.
  FiberRoutingOptions two = options;
  two.wavelengths = 2;
  EXPECT_EQ(route_fibers(line, demands, two).fibers, 2);
  // No demands: the existing load alone.
  const FiberRouting idle = route_fibers(line, {}, options);
  EXPECT_EQ(idle.fibers, 3);
  EXPECT_TRUE(idle.optimal);
  EXPECT_EQ(idle.edge_load, options.existing);
  EXPECT_EQ(route_fibers(line, {}).fibers, 0);
}

TEST(FiberRouting, RefusesBadDemandsAndOptions) {
  const ServerGrid grid{2, 2};
  auto message = [&](const std::vector<FiberDemand>& demands, const FiberRoutingOptions& options) {
    try {
      route_fibers(grid, demands, options);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const FiberRoutingOptions plain;
  EXPECT_NE(message({{0, 1}, {2, 2}}, plain).find("fiber demand 1 (2 -> 2)"), std::string::npos);
  EXPECT_NE(message({{0, 1}, {2, 2}}, plain).find("src equals dst"), std::string::npos);
  EXPECT_NE(message({{0, 4}}, plain).find("fiber demand 0 (0 -> 4): server outside"), std::string::npos);
  EXPECT_NE(message({{-1, 3}}, plain).find("outside"), std::string::npos);
  FiberRoutingOptions no_wavelengths;
  no_wavelengths.wavelengths = 0;
  EXPECT_NE(message({{0, 1}}, no_wavelengths).find("wavelengths 0"), std::string::npos);
  FiberRoutingOptions short_existing;
  short_existing.existing = {1, 2};
  EXPECT_NE(message({{0, 1}}, short_existing).find("8 directed edges"), std::string::npos);
  EXPECT_THROW(fiber_cut_lower_bound(grid, {{3, 3}}), Error);
}

TEST(FiberRouting, TinyTimeLimitStillRoutesEveryDemand) {
  const ServerGrid grid{8, 8};
  const auto demands = random_demands(grid, 100, 42);
  FiberRoutingOptions options;
  options.time_limit_s = 0.01;
  options.reroute = false;  // leave the work to CBC
  const FiberRouting routing = route_fibers(grid, demands, options);
  EXPECT_TRUE(routing.ilp);
  expect_valid(grid, demands, options, routing);
  EXPECT_GE(routing.fibers, fiber_cut_lower_bound(grid, demands));
}

TEST(FiberRouting, SameInputSameRouting) {
  const ServerGrid grid{3, 3};
  const auto demands = random_demands(grid, 8, 5);
  FiberRoutingOptions options;
  options.reroute = false;
  const FiberRouting a = route_fibers(grid, demands, options);
  const FiberRouting b = route_fibers(grid, demands, options);
  EXPECT_TRUE(a.optimal);
  EXPECT_TRUE(a.ilp);
  EXPECT_EQ(a.paths, b.paths);
  EXPECT_EQ(a.wavelength, b.wavelength);
  EXPECT_EQ(a.fibers, b.fibers);
}

TEST(FiberRouting, PastTheColumnCapTheReroutedStartIsReturnedWithTheCutBound) {
  const ServerGrid grid{4, 4};
  std::vector<FiberDemand> demands;
  for (int s = 0; s < 16; ++s) demands.push_back({s, 15 - s == s ? (s + 1) % 16 : 15 - s});
  FiberRoutingOptions capped;
  capped.max_ilp_columns = 10;
  const FiberRouting r = route_fibers(grid, demands, capped);
  EXPECT_FALSE(r.ilp);
  EXPECT_EQ(r.paths.size(), demands.size());
  EXPECT_EQ(r.best_bound, std::min<double>(r.fibers, fiber_cut_lower_bound(grid, demands)));
  EXPECT_EQ(r.optimal, r.fibers <= fiber_cut_lower_bound(grid, demands));
  // Uncapped, CBC may only do better.
  EXPECT_LE(route_fibers(grid, demands).fibers, r.fibers);
}

}  // namespace
}  // namespace photonsim
