#include "topology/switch_decomposition.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/spec/fabric_spec.h"
#include "core/rng.h"
#include "topology/topology_properties.h"
#include "tests/support/test_fabric.h"

namespace photonsim {
namespace {

FabricSpec switch_decomposition_fabric(int gpus, int ports, CircuitKind circuits) {
  FabricSpec f = testing_support::test_fabric(gpus, ports, circuits);
  return f;
}

// A uniformly random permutation without fixed points (topologies have no self-loops).
std::vector<Node> derangement(int n, Rng& rng) {
  std::vector<Node> p(static_cast<size_t>(n));
  while (true) {
    for (int i = 0; i < n; ++i) p[i] = static_cast<Node>(i);
    for (int i = n - 1; i > 0; --i) std::swap(p[i], p[rng.uniform(static_cast<uint64_t>(i) + 1)]);
    bool fixed_point = false;
    for (int i = 0; i < n; ++i) fixed_point = fixed_point || p[i] == static_cast<Node>(i);
    if (!fixed_point) return p;
  }
}

std::vector<Edge> union_of_derangements(int n, int k, Rng& rng) {
  std::vector<Edge> e;
  for (int i = 0; i < k; ++i) {
    const std::vector<Node> p = derangement(n, rng);
    for (int u = 0; u < n; ++u) e.push_back({static_cast<Node>(u), p[u]});
  }
  return e;
}

// Configuration model: k transmit and k receive stubs per node, receive stubs
// shuffled and paired, self-loops repaired by random swaps. No permutation
// structure is known to the generator.
std::vector<Edge> random_regular(int n, int k, Rng& rng) {
  std::vector<Node> heads;
  for (int u = 0; u < n; ++u) {
    for (int i = 0; i < k; ++i) heads.push_back(static_cast<Node>(u));
  }
  for (size_t i = heads.size() - 1; i > 0; --i) std::swap(heads[i], heads[rng.uniform(i + 1)]);
  auto tail = [k](size_t i) { return static_cast<Node>(i / static_cast<size_t>(k)); };
  for (size_t i = 0; i < heads.size(); ++i) {
    while (heads[i] == tail(i)) {
      const size_t j = rng.uniform(heads.size());
      if (heads[j] != tail(i) && heads[i] != tail(j)) std::swap(heads[i], heads[j]);
    }
  }
  std::vector<Edge> e;
  for (size_t i = 0; i < heads.size(); ++i) e.push_back({tail(i), heads[i]});
  return e;
}

std::vector<Edge> switch_decomposition_circulant(int n, const std::vector<int>& offsets) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) {
    for (int a : offsets) e.push_back({static_cast<Node>(u), static_cast<Node>((u + a) % n)});
  }
  return e;
}

// Undirected edges as both directed circuits.
Topology bidirectional(const std::string& name, int n, const std::vector<Edge>& undirected) {
  std::vector<Edge> e;
  for (const Edge& x : undirected) {
    e.push_back(x);
    e.push_back({x.second, x.first});
  }
  return Topology(name, n, std::move(e));
}

std::vector<Edge> cycle_edges(int n) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) e.push_back({static_cast<Node>(u), static_cast<Node>((u + 1) % n)});
  return e;
}

std::vector<Edge> complete_edges(int n) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) {
    for (int v = u + 1; v < n; ++v) e.push_back({static_cast<Node>(u), static_cast<Node>(v)});
  }
  return e;
}

std::vector<Edge> petersen_edges() {
  std::vector<Edge> e;
  for (Node i = 0; i < 5; ++i) {
    e.push_back({i, (i + 1) % 5});          // outer 5-cycle
    e.push_back({i, i + 5});                // spoke
    e.push_back({i + 5, (i + 2) % 5 + 5});  // inner pentagram
  }
  return e;
}

// Every switch is a (partial) permutation, the switches together hold exactly
// the input circuits, and each switch is a valid ports = 1 configuration.
void expect_directed_split(const Topology& t, int k, bool full) {
  SCOPED_TRACE(t.name() + " with " + std::to_string(k) + " switches");
  const SwitchDecomposition d = SwitchDecomposition::decompose(t, k, CircuitKind::directed);
  ASSERT_EQ(d.switches(), k);
  ASSERT_EQ(d.gpus(), t.gpus());
  EXPECT_EQ(d.circuits(), CircuitKind::directed);
  const int n = t.gpus();
  std::vector<Edge> together;
  for (int i = 0; i < k; ++i) {
    const std::vector<int>& p = d.permutations()[i];
    ASSERT_EQ(static_cast<int>(p.size()), n);
    std::vector<int> receives(static_cast<size_t>(n), 0);
    for (int u = 0; u < n; ++u) {
      if (p[u] < 0) {
        EXPECT_FALSE(full) << "switch " << i << " leaves node " << u << " unused";
        continue;
      }
      ASSERT_LT(p[u], n);
      ++receives[p[u]];
      together.push_back({static_cast<Node>(u), static_cast<Node>(p[u])});
    }
    for (int v = 0; v < n; ++v) {
      EXPECT_LE(receives[v], 1) << "switch " << i << " node " << v;
      if (full) {
        EXPECT_EQ(receives[v], 1) << "switch " << i << " node " << v;
      }
    }
    const Topology s = d.switch_topology(static_cast<size_t>(i));
    EXPECT_NO_THROW(s.check_ports(switch_decomposition_fabric(n, 1, CircuitKind::directed)));
    if (full) {
      EXPECT_TRUE(is_regular(s, 1));
    }
  }
  std::sort(together.begin(), together.end());
  EXPECT_EQ(together, t.edges());
}

// Every switch is a matching (an involution without fixed points), together
// they hold each bidirectional circuit exactly once.
void expect_bidirectional_split(const Topology& t, int k, bool perfect) {
  SCOPED_TRACE(t.name() + " with " + std::to_string(k) + " switches");
  const SwitchDecomposition d = SwitchDecomposition::decompose(t, k, CircuitKind::bidirectional);
  ASSERT_EQ(d.switches(), k);
  EXPECT_EQ(d.circuits(), CircuitKind::bidirectional);
  const int n = t.gpus();
  std::vector<Edge> together;
  for (int i = 0; i < k; ++i) {
    const std::vector<int>& p = d.permutations()[i];
    ASSERT_EQ(static_cast<int>(p.size()), n);
    for (int u = 0; u < n; ++u) {
      if (p[u] < 0) {
        EXPECT_FALSE(perfect) << "switch " << i << " leaves node " << u << " unused";
        continue;
      }
      ASSERT_LT(p[u], n);
      EXPECT_NE(p[u], u);
      EXPECT_EQ(p[p[u]], u) << "switch " << i << " node " << u;
      together.push_back({static_cast<Node>(u), static_cast<Node>(p[u])});
    }
    EXPECT_NO_THROW(d.switch_topology(static_cast<size_t>(i))
                        .check_ports(switch_decomposition_fabric(n, 1, CircuitKind::bidirectional)));
  }
  std::sort(together.begin(), together.end());
  EXPECT_EQ(together, t.edges());
}

std::string switch_decomposition_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string directed_error(const Topology& t, int k) {
  return switch_decomposition_error_of([&] { SwitchDecomposition::decompose(t, k, CircuitKind::directed); });
}

std::string bidirectional_error(const Topology& t, int k, int64_t steps = SwitchDecomposition::default_search_steps) {
  return switch_decomposition_error_of(
      [&] { SwitchDecomposition::decompose(t, k, CircuitKind::bidirectional, steps); });
}

// ------------------------------------------------------------------ directed

TEST(SwitchDecomposition, Random2And3RegularDirectedGraphsSplitIntoPermutations) {
  int graphs = 0;
  for (int k : {2, 3}) {
    for (int n = 2; n <= 40; ++n) {
      for (uint64_t seed = 0; seed < 4; ++seed) {
        Rng rng(seed * 1000 + static_cast<uint64_t>(n * 10 + k));
        const Topology from_perms("perms n=" + std::to_string(n) + " seed=" + std::to_string(seed), n,
                                  union_of_derangements(n, k, rng));
        const Topology configured("config n=" + std::to_string(n) + " seed=" + std::to_string(seed), n,
                                  random_regular(n, k, rng));
        for (const Topology* t : {&from_perms, &configured}) {
          ASSERT_TRUE(is_regular(*t, k)) << t->name();
          expect_directed_split(*t, k, true);
          ++graphs;
        }
      }
    }
  }
  EXPECT_EQ(graphs, 2 * 39 * 4 * 2);
}

TEST(SwitchDecomposition, RandomGraphsIncludeParallelCircuits) {
  // The random families above must actually exercise parallel circuits.
  int with_parallel = 0;
  for (int n = 2; n <= 40; ++n) {
    Rng rng(static_cast<uint64_t>(n));
    const Topology t("t", n, random_regular(n, 3, rng));
    const auto& e = t.edges();
    if (std::adjacent_find(e.begin(), e.end()) != e.end()) {
      ++with_parallel;
      expect_directed_split(t, 3, true);
    }
  }
  EXPECT_GT(with_parallel, 5);
  // n = 2 forces every circuit to be parallel: 0 -> 1 three times.
  const Topology triple("triple", 2, {{0, 1}, {0, 1}, {0, 1}, {1, 0}, {1, 0}, {1, 0}});
  expect_directed_split(triple, 3, true);
}

TEST(SwitchDecomposition, CirculantGraphsSplitIntoPermutations) {
  for (int n = 2; n <= 24; ++n) {
    for (int a = 1; a < n; ++a) {
      for (int b = a; b < n; ++b) {
        expect_directed_split(
            Topology("circulant " + std::to_string(n) + " +" + std::to_string(a) + " +" + std::to_string(b), n,
                     switch_decomposition_circulant(n, {a, b})),
            2, true);
      }
    }
  }
  for (int n : {25, 32, 40}) {
    for (int a = 1; a < n; a += 3) {
      expect_directed_split(
          Topology("circulant3", n, switch_decomposition_circulant(n, {a, n - a, (a * 7) % (n - 1) + 1})), 3, true);
    }
  }
}

TEST(SwitchDecomposition, PartialDegreesGiveUnusedPorts) {
  // Max degree 2 but not regular: 0 sends twice, 3 receives nothing.
  const Topology t("partial", 4, {{0, 1}, {0, 2}, {1, 0}, {2, 1}});
  expect_directed_split(t, 2, false);
  // More switches than the degree: the extra switches stay dark.
  const Topology ring("ring", 5, cycle_edges(5));
  expect_directed_split(ring, 3, false);
  const SwitchDecomposition d = SwitchDecomposition::decompose(ring, 3, CircuitKind::directed);
  int dark = 0;
  for (const auto& p : d.permutations()) dark += std::count(p.begin(), p.end(), -1) == 5 ? 1 : 0;
  EXPECT_EQ(dark, 2);
  // Random partial graphs: drop circuits from regular ones.
  for (uint64_t seed = 0; seed < 40; ++seed) {
    Rng rng(seed);
    const int n = 2 + static_cast<int>(rng.uniform(30));
    std::vector<Edge> kept;
    for (const Edge& e : random_regular(n, 3, rng)) {
      if (rng.uniform(3) != 0) kept.push_back(e);
    }
    expect_directed_split(Topology("partial seed " + std::to_string(seed), n, kept), 3, false);
  }
  expect_directed_split(Topology("empty", 3, {}), 2, false);
}

TEST(SwitchDecomposition, DirectedDegreeOverSwitchesNamesTheNode) {
  EXPECT_EQ(directed_error(Topology("star", 4, {{1, 2}, {2, 1}, {1, 0}, {1, 3}}), 2),
            "topology 'star': node 1 sends 3 circuits but there are only 2 switches");
  EXPECT_EQ(directed_error(Topology("sink", 4, {{0, 3}, {1, 3}, {2, 3}}), 2),
            "topology 'sink': node 3 receives 3 circuits but there are only 2 switches");
  EXPECT_EQ(directed_error(Topology("ring", 3, cycle_edges(3)), 0),
            "switch decomposition of topology 'ring': switches must be >= 1, got 0");
}

TEST(SwitchDecomposition, SwitchTopologyIndexIsChecked) {
  const SwitchDecomposition d =
      SwitchDecomposition::decompose(Topology("ring", 3, cycle_edges(3)), 1, CircuitKind::directed);
  EXPECT_EQ(d.switch_topology(0).name(), "ring/switch0");
  EXPECT_EQ(d.switch_topology(0), Topology("x", 3, cycle_edges(3)));
  EXPECT_EQ(switch_decomposition_error_of([&] { d.switch_topology(1); }),
            "switch decomposition of topology 'ring': switch 1 does not exist (there are 1)");
}

// Its run time is BM_SwitchDecomposition1024Degree4 (scripts/dev/bench), not a test.
TEST(SwitchDecomposition, Large4RegularDirectedGraphSplitsIntoFourMatchings) {
  Rng rng(2024);
  expect_directed_split(Topology("big", 1024, random_regular(1024, 4, rng)), 4, true);
}

// ------------------------------------------------------------- bidirectional

TEST(SwitchDecomposition, EvenCycleSplitsIntoTwoMatchings) {
  for (int n : {2, 4, 6, 10, 64}) {
    // n = 2: the "cycle" is two parallel circuits between 0 and 1.
    expect_bidirectional_split(bidirectional("c" + std::to_string(n), n, cycle_edges(n)), 2, true);
  }
}

TEST(SwitchDecomposition, OddCycleWithTwoSwitchesIsAnError) {
  EXPECT_EQ(bidirectional_error(bidirectional("c5", 5, cycle_edges(5)), 2),
            "bidirectional topology 'c5' cannot be split into 2 switch matchings: odd cycle "
            "0-1-2-3-4-0 needs 3 switches");
  EXPECT_EQ(bidirectional_error(bidirectional("c3", 3, cycle_edges(3)), 2),
            "bidirectional topology 'c3' cannot be split into 2 switch matchings: odd cycle "
            "0-1-2-0 needs 3 switches");
  // An odd cycle elsewhere in the graph, next to a splittable even cycle.
  std::vector<Edge> mixed = cycle_edges(4);
  for (Node u = 0; u < 15; ++u) mixed.push_back({u + 4, (u + 1) % 15 + 4});
  EXPECT_EQ(bidirectional_error(bidirectional("mixed", 19, mixed), 2),
            "bidirectional topology 'mixed' cannot be split into 2 switch matchings: odd cycle "
            "4-5-6-7-8-9-...-4 (length 15) needs 3 switches");
  // Three switches are enough for any odd cycle.
  expect_bidirectional_split(bidirectional("c5", 5, cycle_edges(5)), 3, false);
  expect_bidirectional_split(bidirectional("mixed", 19, mixed), 3, false);
}

TEST(SwitchDecomposition, ThreeRegularBipartiteGraphsSplitIntoThreePerfectMatchings) {
  // K3,3.
  std::vector<Edge> k33;
  for (Node u = 0; u < 3; ++u) {
    for (Node v = 3; v < 6; ++v) k33.push_back({u, v});
  }
  expect_bidirectional_split(bidirectional("K3,3", 6, k33), 3, true);
  // The 3-cube.
  std::vector<Edge> cube;
  for (Node u = 0; u < 8; ++u) {
    for (Node b : {1u, 2u, 4u}) {
      if (u < (u ^ b)) cube.push_back({u, u ^ b});
    }
  }
  expect_bidirectional_split(bidirectional("Q3", 8, cube), 3, true);
  // Random 3-regular bipartite multigraphs: three random perfect matchings
  // between the halves, shuffled together (parallel circuits included).
  for (uint64_t seed = 0; seed < 30; ++seed) {
    Rng rng(seed);
    const int half = 1 + static_cast<int>(rng.uniform(20));
    std::vector<Edge> e;
    for (int i = 0; i < 3; ++i) {
      std::vector<Node> p(static_cast<size_t>(half));
      for (int j = 0; j < half; ++j) p[j] = static_cast<Node>(j);
      for (int j = half - 1; j > 0; --j) std::swap(p[j], p[rng.uniform(static_cast<uint64_t>(j) + 1)]);
      for (int j = 0; j < half; ++j) e.push_back({static_cast<Node>(j), static_cast<Node>(half) + p[j]});
    }
    expect_bidirectional_split(bidirectional("bipartite seed " + std::to_string(seed), 2 * half, e), 3, true);
  }
}

TEST(SwitchDecomposition, CompleteGraphK4SplitsIntoThreeMatchings) {
  expect_bidirectional_split(bidirectional("K4", 4, complete_edges(4)), 3, true);
  expect_bidirectional_split(bidirectional("K6", 6, complete_edges(6)), 5, true);
  expect_bidirectional_split(bidirectional("K8", 8, complete_edges(8)), 7, true);
  // K5 has 10 edges but 4 matchings on 5 nodes hold at most 8.
  EXPECT_EQ(bidirectional_error(bidirectional("K5", 5, complete_edges(5)), 4),
            "bidirectional topology 'K5' cannot be split into 4 switch matchings: no proper "
            "4-edge-colouring exists (the component containing node 0 has 10 circuits on 5 nodes, "
            "but 4 matchings hold at most 8)");
  expect_bidirectional_split(bidirectional("K5", 5, complete_edges(5)), 5, false);
}

TEST(SwitchDecomposition, PetersenGraphWithThreeSwitchesIsAnError) {
  const Topology petersen = bidirectional("petersen", 10, petersen_edges());
  ASSERT_TRUE(is_regular(petersen, 3));
  EXPECT_EQ(bidirectional_error(petersen, 3),
            "bidirectional topology 'petersen' cannot be split into 3 switch matchings: no proper "
            "3-edge-colouring exists (exhaustive search over the component containing node 0)");
  expect_bidirectional_split(petersen, 4, false);
}

TEST(SwitchDecomposition, SearchLimitIsAnErrorNotAWrongAnswer) {
  const Topology petersen = bidirectional("petersen", 10, petersen_edges());
  EXPECT_EQ(bidirectional_error(petersen, 3, 5),
            "bidirectional topology 'petersen': the search for a split into 3 switch matchings gave "
            "up on the component containing node 0 after 5 colour assignments; whether a split "
            "exists is unknown");
}

TEST(SwitchDecomposition, NonBipartiteClassOneGraphsSplit) {
  // Triangular prism: two triangles joined by a perfect matching.
  const Topology prism =
      bidirectional("prism", 6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {0, 3}, {1, 4}, {2, 5}});
  expect_bidirectional_split(prism, 3, true);
  // Odd bidirectional torus 3 x 4 (wrap-around), 4-regular.
  std::vector<Edge> torus;
  for (Node i = 0; i < 3; ++i) {
    for (Node j = 0; j < 4; ++j) {
      torus.push_back({i * 4 + j, ((i + 1) % 3) * 4 + j});
      torus.push_back({i * 4 + j, i * 4 + (j + 1) % 4});
    }
  }
  expect_bidirectional_split(bidirectional("torus3x4", 12, torus), 4, true);
}

// Independent brute force over every colouring, to check the splitter's
// yes/no answers on small random multigraphs.
bool colourable(const std::vector<Edge>& edges, int k) {
  std::vector<int> colour(edges.size(), 0);
  std::function<bool(size_t)> place = [&](size_t i) {
    if (i == edges.size()) return true;
    for (int c = 0; c < k; ++c) {
      bool clash = false;
      for (size_t j = 0; j < i; ++j) {
        const bool touch = edges[j].first == edges[i].first || edges[j].first == edges[i].second ||
                           edges[j].second == edges[i].first || edges[j].second == edges[i].second;
        clash = clash || (touch && colour[j] == c);
      }
      if (clash) continue;
      colour[i] = c;
      if (place(i + 1)) return true;
    }
    return false;
  };
  return place(0);
}

TEST(SwitchDecomposition, BidirectionalAnswersMatchBruteForce) {
  int splittable = 0, not_splittable = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    Rng rng(seed);
    const int n = 3 + static_cast<int>(rng.uniform(6));
    const int k = 2 + static_cast<int>(rng.uniform(2));
    std::vector<int> degree(static_cast<size_t>(n), 0);
    std::vector<Edge> edges;
    for (int attempt = 0; attempt < 4 * n && edges.size() < 11; ++attempt) {
      const Node u = static_cast<Node>(rng.uniform(n));
      const Node v = static_cast<Node>((u + 1 + rng.uniform(n - 1)) % n);
      if (degree[u] < k && degree[v] < k) {
        edges.push_back({std::min(u, v), std::max(u, v)});
        ++degree[u];
        ++degree[v];
      }
    }
    const Topology t = bidirectional("random seed " + std::to_string(seed), n, edges);
    if (colourable(edges, k)) {
      ++splittable;
      expect_bidirectional_split(t, k, false);
    } else {
      ++not_splittable;
      EXPECT_NE(bidirectional_error(t, k).find("cannot be split into " + std::to_string(k)), std::string::npos)
          << t.name();
    }
  }
  EXPECT_GT(splittable, 50);
  EXPECT_GT(not_splittable, 10);
}

TEST(SwitchDecomposition, BidirectionalInputErrors) {
  EXPECT_EQ(bidirectional_error(bidirectional("star", 4, {{0, 1}, {0, 2}, {0, 3}}), 2),
            "bidirectional topology 'star': node 0 ends 3 circuits but there are only 2 switches");
  EXPECT_EQ(bidirectional_error(bidirectional("hub", 5, {{0, 1}, {1, 2}, {1, 3}, {3, 4}}), 2),
            "bidirectional topology 'hub': node 1 ends 3 circuits but there are only 2 switches");
  EXPECT_EQ(bidirectional_error(Topology("oneway", 3, {{0, 1}, {1, 0}, {1, 2}}), 2),
            "bidirectional topology 'oneway': circuit 1->2 at node 1 has no matching reverse circuit");
  // One direction doubled but not the other.
  EXPECT_EQ(bidirectional_error(Topology("lopsided", 2, {{0, 1}, {0, 1}, {1, 0}}), 2),
            "bidirectional topology 'lopsided': circuit 0->1 at node 0 has no matching reverse "
            "circuit");
}

}  // namespace
}  // namespace photonsim
