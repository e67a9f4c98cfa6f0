#include "topology/physical/mesh_routing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "topology/physical/mesh_shortest_path.h"
#include "topology/physical/mzi_mesh.h"
#include "tests/support/mesh_requests.h"

namespace photonsim {
namespace {

// Everything wrong with a routing, recomputed from the routes alone (the
// waveguide ids from the formula in mzi_mesh.h, not from MziMesh::waveguide):
// "" when every routed circuit is a 4-neighbour walk src..dst on one wavelength
// of the mesh, no (waveguide, wavelength) is taken twice (kept circuits
// included), and the counts the routing reports match the routes.
std::string problems(const MziMesh& mesh, const std::vector<MeshRequest>& requests, const MeshRouting& result,
                     const std::vector<MeshRoute>& kept = {}) {
  std::string out;
  const int rows = mesh.rows(), cols = mesh.cols();
  const auto guide = [&](int a, int b) {
    if (a > b) std::swap(a, b);
    const int ra = a / cols, ca = a % cols, rb = b / cols, cb = b % cols;
    if (ra == rb && cb == ca + 1) return ra * (cols - 1) + ca;
    if (ca == cb && rb == ra + 1) return rows * (cols - 1) + ra * cols + ca;
    return -1;
  };
  std::map<std::pair<int, int>, int> per_slot;  // (waveguide, wavelength) -> circuits
  std::vector<int> use(mesh.waveguides(), 0);
  const auto walk = [&](const MeshRoute& route, const std::string& name, bool count) {
    if (route.wavelength < 0 || route.wavelength >= mesh.wavelengths())
      out += name + ": wavelength " + std::to_string(route.wavelength) + "; ";
    for (int n : route.nodes)
      if (n < 0 || n >= rows * cols) out += name + ": node " + std::to_string(n) + " outside; ";
    for (size_t k = 0; k + 1 < route.nodes.size(); ++k) {
      const int g = guide(route.nodes[k], route.nodes[k + 1]);
      if (g < 0) {
        out += name + ": step " + std::to_string(k) + " is not between neighbours; ";
        continue;
      }
      if (++per_slot[{g, route.wavelength}] > 1)
        out += name + ": waveguide " + std::to_string(g) + " wavelength " + std::to_string(route.wavelength) +
               " taken twice; ";
      if (count) ++use[static_cast<size_t>(g)];
    }
  };
  for (size_t i = 0; i < kept.size(); ++i) walk(kept[i], "kept " + std::to_string(i), false);
  if (result.routes.size() != requests.size()) return out + "route count differs from request count";
  int first_failure = -1, routed = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    const MeshRoute& route = result.routes[i];
    const std::string name = "route " + std::to_string(i);
    if (route.nodes.empty()) {
      if (first_failure < 0) first_failure = static_cast<int>(i);
      if (route.wavelength != -1) out += name + ": unrouted with a wavelength; ";
      continue;
    }
    ++routed;
    if (route.nodes.front() != requests[i].src || route.nodes.back() != requests[i].dst)
      out += name + ": does not run from src to dst; ";
    walk(route, name, true);
  }
  if (result.first_failure != first_failure) out += "first_failure " + std::to_string(result.first_failure) + "; ";
  if (result.complete != (first_failure < 0)) out += "complete is wrong; ";
  if (result.routed != routed) out += "routed count is wrong; ";
  if (result.waveguide_use != use) out += "waveguide_use differs from the routes; ";
  const int most = use.empty() ? 0 : *std::max_element(use.begin(), use.end());
  if (result.most_used != most) out += "most_used " + std::to_string(result.most_used) + " != " + std::to_string(most);
  return out;
}

// Random requests: both ends anywhere, or (border) src on one side of the mesh
// and dst on a different side, as the paper samples them.
std::vector<MeshRequest> random_requests(const MziMesh& mesh, int count, uint64_t seed, bool border) {
  if (border) return testing_support::border_requests(mesh, count, seed);
  Rng rng(seed);
  std::vector<MeshRequest> out;
  while (static_cast<int>(out.size()) < count) {
    MeshRequest r;
    r.src = static_cast<int>(rng.uniform(static_cast<uint64_t>(mesh.nodes())));
    r.dst = static_cast<int>(rng.uniform(static_cast<uint64_t>(mesh.nodes())));
    if (r.src != r.dst) out.push_back(r);
  }
  return out;
}

int manhattan(const MziMesh& mesh, int a, int b) {
  return std::abs(mesh.row(a) - mesh.row(b)) + std::abs(mesh.col(a) - mesh.col(b));
}

std::set<int> waveguides_of(const MziMesh& mesh, const MeshRoute& route) {
  std::set<int> out;
  for (size_t k = 0; k + 1 < route.nodes.size(); ++k) out.insert(mesh.waveguide(route.nodes[k], route.nodes[k + 1]));
  return out;
}

TEST(MziMesh, WaveguideIdsFollowTheDocumentedFormula) {
  const MziMesh mesh(3, 4, 2);
  EXPECT_EQ(mesh.nodes(), 12);
  EXPECT_EQ(mesh.wavelengths(), 2);
  ASSERT_EQ(mesh.waveguides(), size_t{3 * 3 + 2 * 4});
  EXPECT_EQ(mesh.waveguide(mesh.node(1, 2), mesh.node(1, 3)), 1 * 3 + 2);
  EXPECT_EQ(mesh.waveguide(mesh.node(1, 3), mesh.node(1, 2)), 1 * 3 + 2);
  EXPECT_EQ(mesh.waveguide(mesh.node(1, 2), mesh.node(2, 2)), 9 + 1 * 4 + 2);
  EXPECT_EQ(mesh.waveguide(mesh.node(0, 0), mesh.node(1, 1)), -1);
  EXPECT_EQ(mesh.waveguide(mesh.node(0, 3), mesh.node(1, 0)), -1);  // consecutive ids, not neighbours
  std::vector<int> seen(mesh.waveguides(), 0);
  for (int u = 0; u < mesh.nodes(); ++u) {
    int previous = -1;
    for (const MziMesh::Link& link : mesh.neighbours(u)) {
      EXPECT_GT(link.node, previous) << "neighbours of " << u << " in increasing id";
      previous = link.node;
      EXPECT_EQ(manhattan(mesh, u, link.node), 1);
      EXPECT_EQ(mesh.waveguide(link.node, u), link.waveguide);
      const auto [a, b] = mesh.ends(link.waveguide);
      EXPECT_EQ(std::min(u, link.node), a);
      EXPECT_EQ(std::max(u, link.node), b);
      ++seen[static_cast<size_t>(link.waveguide)];
    }
  }
  EXPECT_EQ(seen, std::vector<int>(mesh.waveguides(), 2));  // every waveguide from both ends
  EXPECT_TRUE(mesh.on_border(mesh.node(0, 2)));
  EXPECT_TRUE(mesh.on_border(mesh.node(1, 3)));
  EXPECT_FALSE(mesh.on_border(mesh.node(1, 1)));
  EXPECT_EQ(MziMesh(1, 1).waveguides(), size_t{0});
}

TEST(MziMesh, RefusesBadSizesAndNodes) {
  EXPECT_THROW(MziMesh(0, 4), Error);
  EXPECT_THROW(MziMesh(4, -1), Error);
  EXPECT_THROW(MziMesh(4, 4, 0), Error);
  EXPECT_THROW(MziMesh(1 << 16, 1 << 16), Error);
  const MziMesh mesh(2, 3);
  EXPECT_THROW(mesh.node(2, 0), Error);
  EXPECT_THROW(mesh.node(0, -1), Error);
  EXPECT_THROW(mesh.neighbours(6), Error);
  EXPECT_THROW(mesh.waveguide(0, -1), Error);
  EXPECT_THROW(mesh.ends(7), Error);
}

TEST(MeshRouting, CheckerCatchesBrokenRoutings) {
  const MziMesh mesh(3, 4);
  const std::vector<MeshRequest> requests{{mesh.node(1, 0), mesh.node(1, 3)}, {mesh.node(0, 1), mesh.node(2, 1)}};
  const MeshRouting good = route_mesh(mesh, requests);
  ASSERT_EQ(problems(mesh, requests, good), "");
  MeshRouting bad = good;
  bad.routes[1].nodes = {mesh.node(0, 1), mesh.node(2, 1)};  // a jump
  EXPECT_NE(problems(mesh, requests, bad), "");
  bad = good;
  bad.routes[1] = good.routes[0];  // the same waveguides twice, and the wrong ends
  EXPECT_NE(problems(mesh, requests, bad), "");
  bad = good;
  ++bad.most_used;
  EXPECT_NE(problems(mesh, requests, bad), "");
  bad = good;
  bad.routes[0] = MeshRoute{};
  EXPECT_NE(problems(mesh, requests, bad), "");  // first_failure, complete, use no longer match
}

TEST(MeshRouting, LoneCircuitTakesAShortestPathWithLowerIdsOnTies) {
  const MziMesh mesh(5, 7);
  const MeshRequest r{mesh.node(1, 1), mesh.node(3, 5)};
  const MeshRouting result = route_mesh(mesh, {r});
  ASSERT_EQ(problems(mesh, {r}, result), "");
  ASSERT_TRUE(result.complete);
  EXPECT_EQ(result.routes[0].hops(), manhattan(mesh, r.src, r.dst));
  EXPECT_EQ(result.routes[0].wavelength, 0);
  EXPECT_EQ(result.trials, 1);
  // Every node is first reached from its lower-id neighbour (the one above),
  // so the path runs along row 1 and then down column 5.
  const std::vector<int> expected{mesh.node(1, 1), mesh.node(1, 2), mesh.node(1, 3), mesh.node(1, 4),
                                  mesh.node(1, 5), mesh.node(2, 5), mesh.node(3, 5)};
  EXPECT_EQ(result.routes[0].nodes, expected);
  EXPECT_EQ(result.most_used, 1);
}

TEST(MeshRouting, SecondCircuitOnTheSameWaveguidesDetours) {
  const MziMesh mesh(3, 4);
  const MeshRequest straight{mesh.node(1, 0), mesh.node(1, 3)};
  const MeshRouting result = route_mesh(mesh, {straight, straight});
  ASSERT_EQ(problems(mesh, {straight, straight}, result), "");
  ASSERT_TRUE(result.complete);
  EXPECT_EQ(result.routes[0].hops(), 3);
  EXPECT_EQ(result.routes[1].hops(), 5);  // around row 0 or row 2
  EXPECT_EQ(result.routes[1].wavelength, 0);
  const std::set<int> first = waveguides_of(mesh, result.routes[0]), second = waveguides_of(mesh, result.routes[1]);
  for (int g : second) EXPECT_EQ(first.count(g), 0u) << "shared waveguide " << g;
  // The first circuit's waveguides weigh 2 now, so the detour (5) is already
  // shorter than the straight path (6): one search.
  EXPECT_EQ(result.trials, 2);
}

TEST(MeshRouting, PenaltiesPushARejectedPathAside) {
  // The first circuit takes row 1; the second wants one of its waveguides
  // (weight 2), while the detour through row 0 weighs 3.
  const MziMesh mesh(3, 6);
  const std::vector<MeshRequest> requests{{mesh.node(1, 0), mesh.node(1, 5)}, {mesh.node(1, 2), mesh.node(1, 3)}};
  MeshRoutingOptions options;
  MeshRouting result = route_mesh(mesh, requests, options);
  ASSERT_EQ(problems(mesh, requests, result), "");
  ASSERT_TRUE(result.complete);
  EXPECT_EQ(result.routes[1].hops(), 3);
  EXPECT_EQ(result.trials, 1 + 2);  // rejected at weight 2, penalised to 4, detour

  options.penalty_factor = 1.25;  // 2 -> 2.5 -> 3.125: rejected twice
  result = route_mesh(mesh, requests, options);
  ASSERT_EQ(problems(mesh, requests, result), "");
  EXPECT_EQ(result.routes[1].hops(), 3);
  EXPECT_EQ(result.trials, 1 + 3);

  options.trials = 2;  // too few at 1.25
  result = route_mesh(mesh, requests, options);
  ASSERT_EQ(problems(mesh, requests, result), "");
  EXPECT_FALSE(result.complete);
  EXPECT_EQ(result.first_failure, 1);
  EXPECT_EQ(result.trials, 1 + 2);
}

TEST(MeshRouting, ImpossibleOnOneWavelengthSharesOnTwo) {
  const MziMesh line(1, 5);
  const std::vector<MeshRequest> requests{{0, 4}, {1, 3}, {1, 2}};
  MeshRouting result = route_mesh(line, requests);
  ASSERT_EQ(problems(line, requests, result), "");
  EXPECT_FALSE(result.complete);
  EXPECT_EQ(result.first_failure, 1);
  EXPECT_EQ(result.routed, 1);
  EXPECT_TRUE(result.routes[1].nodes.empty());
  EXPECT_EQ(result.routes[1].wavelength, -1);
  EXPECT_TRUE(result.routes[2].nodes.empty());
  // Node 1 has no free waveguide left: no search for either failure.
  EXPECT_EQ(result.trials, 1);

  const MziMesh two(1, 5, 2);
  result = route_mesh(two, requests);
  ASSERT_EQ(problems(two, requests, result), "");
  EXPECT_FALSE(result.complete);
  EXPECT_EQ(result.first_failure, 2);  // 1 -> 2 is taken on both wavelengths
  EXPECT_EQ(result.routes[1].wavelength, 1);
  EXPECT_EQ(result.routes[1].nodes, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(result.most_used, 2);
  EXPECT_EQ(result.waveguide_use, (std::vector<int>{1, 2, 2, 1}));
}

TEST(MeshRouting, AFixedWavelengthIsTheOnlyOneTried) {
  const MziMesh two(1, 5, 2);
  // The first circuit must keep wavelength 1 (as on its fiber); the second then finds 0 free.
  const std::vector<MeshRequest> requests{{0, 4, 1}, {1, 3, -1}, {1, 2, 1}};
  const MeshRouting result = route_mesh(two, requests);
  ASSERT_EQ(problems(two, requests, result), "");
  EXPECT_EQ(result.routes[0].wavelength, 1);
  EXPECT_EQ(result.routes[1].wavelength, 0);
  // 1 -> 2 on wavelength 1 is taken by the first circuit, and no other is allowed.
  EXPECT_FALSE(result.routes[2].routed());
  EXPECT_EQ(result.first_failure, 2);
  EXPECT_THROW(route_mesh(two, {{0, 4, 2}}), Error);
  EXPECT_THROW(route_mesh(two, {{0, 4, -2}}), Error);
}

TEST(MeshRouting, KeptCircuitsTakeTheirWavelengths) {
  const MziMesh mesh(3, 4);
  const std::vector<MeshRoute> kept{{{mesh.node(1, 0), mesh.node(1, 1), mesh.node(1, 2), mesh.node(1, 3)}, 0}};
  const std::vector<MeshRequest> requests{{mesh.node(1, 0), mesh.node(1, 3)}};
  const MeshRouting result = route_mesh(mesh, requests, {}, kept);
  ASSERT_EQ(problems(mesh, requests, result, kept), "");
  EXPECT_TRUE(result.complete);
  EXPECT_EQ(result.routes[0].hops(), 5);
  EXPECT_EQ(result.most_used, 1);  // kept circuits are not counted

  const MziMesh line(1, 3);
  const MeshRouting blocked = route_mesh(line, {{0, 2}}, {}, {{{1, 2}, 0}});
  EXPECT_EQ(blocked.first_failure, 0);
  EXPECT_EQ(blocked.trials, 0);  // node 2 has no free waveguide

  // 0 1 2 / 3 4 5 with 1-2 and 4-5 taken: both ends free, no way across. The
  // first rejected path shows it, so the other 63 trials are skipped.
  const MziMesh ladder(2, 3);
  const std::vector<MeshRoute> cut{{{1, 2}, 0}, {{4, 5}, 0}};
  const MeshRouting across = route_mesh(ladder, {{0, 2}, {0, 4}}, {}, cut);
  ASSERT_EQ(problems(ladder, {{0, 2}, {0, 4}}, across, cut), "");
  EXPECT_EQ(across.first_failure, 0);
  EXPECT_EQ(across.routes[1].nodes, (std::vector<int>{0, 1, 4}));  // ties to the lower id: 1 before 3
  EXPECT_EQ(across.trials, 1 + 1);
}

TEST(MeshRouting, RefusesBadRequestsOptionsAndKeptCircuits) {
  const MziMesh mesh(3, 4, 2);
  EXPECT_THROW(route_mesh(mesh, {{0, 12}}), Error);
  EXPECT_THROW(route_mesh(mesh, {{-1, 3}}), Error);
  EXPECT_THROW(route_mesh(mesh, {{0, 1}, {5, 5}}), Error);
  EXPECT_THROW(route_mesh(mesh, {{0, 1}}, {0, 2.0}), Error);
  EXPECT_THROW(route_mesh(mesh, {{0, 1}}, {4, 1.0}), Error);
  EXPECT_THROW(route_mesh(mesh, {{0, 1}}, {4, std::numeric_limits<double>::infinity()}), Error);
  EXPECT_THROW(route_mesh(mesh, {{0, 1}}, {}, {{{0, 1}, 2}}), Error);                            // no wavelength 2
  EXPECT_THROW(route_mesh(mesh, {{0, 1}}, {}, {{{0, 5}, 0}}), Error);                            // not neighbours
  EXPECT_THROW(route_mesh(mesh, {{0, 1}}, {}, {{{0}, 0}}), Error);                               // no waveguide
  EXPECT_THROW(route_mesh(mesh, {{0, 1}}, {}, {{{11, 12}, 0}}), Error);                          // outside
  EXPECT_THROW(route_mesh(mesh, {{0, 1}}, {}, {{{0, 1}, 1}, {{2, 1}, 0}, {{1, 0}, 1}}), Error);  // taken twice
  EXPECT_NO_THROW(route_mesh(mesh, {}, {}, {{{0, 1}, 1}, {{1, 0}, 0}}));
  try {
    route_mesh(mesh, {{0, 1}, {7, 7}});
    FAIL() << "src == dst accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("request 1"), std::string::npos) << e.what();
  }
}

TEST(MeshRouting, RandomInstancesAreValid) {
  struct Case {
    int rows, cols, wavelengths, circuits;
  };
  const std::vector<Case> cases{{4, 4, 1, 6},     {6, 9, 1, 12},   {8, 8, 2, 30},  {16, 16, 1, 40},
                                {16, 16, 3, 120}, {32, 24, 1, 60}, {12, 12, 2, 8}, {20, 10, 1, 5}};
  int incomplete = 0, complete = 0;
  for (const Case& c : cases) {
    const MziMesh mesh(c.rows, c.cols, c.wavelengths);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      for (bool border : {false, true}) {
        SCOPED_TRACE(std::to_string(c.rows) + "x" + std::to_string(c.cols) + " W=" + std::to_string(c.wavelengths) +
                     " seed " + std::to_string(seed) + (border ? " border" : " anywhere"));
        const auto requests = random_requests(mesh, c.circuits, seed, border);
        const MeshRouting result = route_mesh(mesh, requests);
        EXPECT_EQ(problems(mesh, requests, result), "");
        EXPECT_GT(result.routed, 0);
        (result.complete ? complete : incomplete) += 1;
      }
    }
  }
  // Both outcomes are exercised.
  EXPECT_GT(complete, 0);
  EXPECT_GT(incomplete, 0);
}

TEST(MeshRouting, Deterministic) {
  const MziMesh mesh(24, 24, 2);
  const auto requests = random_requests(mesh, 150, 7, true);
  const MeshRouting a = route_mesh(mesh, requests), b = route_mesh(mesh, requests);
  ASSERT_EQ(a.routes.size(), b.routes.size());
  for (size_t i = 0; i < a.routes.size(); ++i) {
    EXPECT_EQ(a.routes[i].nodes, b.routes[i].nodes) << "request " << i;
    EXPECT_EQ(a.routes[i].wavelength, b.routes[i].wavelength) << "request " << i;
  }
  EXPECT_EQ(a.waveguide_use, b.waveguide_use);
  EXPECT_EQ(a.trials, b.trials);
}

TEST(MeshShortestPath, GoalDirectedFindsPathsAsShortAsDijkstra) {
  const MziMesh mesh(13, 17);
  Rng rng(5);
  std::vector<double> weight(mesh.waveguides());
  MeshShortestPath search(mesh);
  std::vector<int> path, crossed;
  const auto length = [&](const std::vector<int>& guides) {
    double sum = 0;
    for (int g : guides) sum += weight[static_cast<size_t>(g)];
    return sum;
  };
  for (int round = 0; round < 40; ++round) {
    // Weights 1 + small integers (exact sums), some waveguides closed.
    for (double& w : weight)
      w = rng.uniform(10) == 0 ? std::numeric_limits<double>::infinity() : 1.0 + static_cast<double>(rng.uniform(4));
    const int src = static_cast<int>(rng.uniform(static_cast<uint64_t>(mesh.nodes())));
    const int dst = static_cast<int>(rng.uniform(static_cast<uint64_t>(mesh.nodes())));
    const bool plain = search.find(src, dst, weight, path, crossed, false);
    const double plain_length = length(crossed);
    const bool directed = search.find(src, dst, weight, path, crossed, true);
    ASSERT_EQ(plain, directed) << "round " << round;
    if (!plain) continue;
    EXPECT_EQ(length(crossed), plain_length) << "round " << round;
    ASSERT_EQ(path.front(), src);
    ASSERT_EQ(path.back(), dst);
    ASSERT_EQ(crossed.size() + 1, path.size());
    for (size_t k = 0; k < crossed.size(); ++k) EXPECT_EQ(mesh.waveguide(path[k], path[k + 1]), crossed[k]);
  }
}

TEST(MeshRouting, PlainDijkstraRoutesValidlyToo) {
  const MziMesh mesh(16, 16, 2);
  const auto requests = random_requests(mesh, 60, 11, true);
  MeshRoutingOptions options;
  options.goal_directed = false;
  const MeshRouting plain = route_mesh(mesh, requests, options);
  EXPECT_EQ(problems(mesh, requests, plain), "");
  EXPECT_GT(plain.routed, 0);
}

TEST(MeshRouting, LossCountsMzisAndTileCrossings) {
  const MziMesh mesh(4, 4);
  const MeshRoute row{{0, 1, 2, 3}, 0};  // tiles of 2 x 2: one crossing
  EXPECT_DOUBLE_EQ(mesh_route_loss_db(mesh, row, 0.1, 0.2, 2), 4 * 0.1 + 0.2);
  EXPECT_DOUBLE_EQ(mesh_route_loss_db(mesh, row, 0.1, 0.2, 1), 4 * 0.1 + 3 * 0.2);
  EXPECT_DOUBLE_EQ(mesh_route_loss_db(mesh, row, 0.1, 0.2, 4), 4 * 0.1);
  EXPECT_DOUBLE_EQ(mesh_route_loss_db(mesh, MeshRoute{}, 0.1, 0.2, 2), 0.0);
  EXPECT_THROW(mesh_route_loss_db(mesh, row, 0.1, 0.2, 0), Error);
}

}  // namespace
}  // namespace photonsim
