// Each built-in generator against its formula and its known properties.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>

#include "core/error.h"
#include "topology/topology_properties.h"
#include "topology/topology_registry.h"

namespace photonsim {
namespace {

FabricSpec fabric(int gpus, int ports = 64, CircuitKind circuits = CircuitKind::directed) {
  FabricSpec f;
  f.gpus = gpus;
  f.ports = ports;
  f.circuits = circuits;
  return f;
}

Topology make(const std::string& type, int gpus, std::map<std::string, std::string> params = {}, int ports = 64,
              CircuitKind circuits = CircuitKind::directed, uint64_t seed = 1) {
  return *TopologyRegistry::with_builtin_generators().make(TopologySpec{type, std::move(params)},
                                                           fabric(gpus, ports, circuits), seed);
}

std::string error_of(const std::string& type, int gpus, std::map<std::string, std::string> params, int ports = 64) {
  try {
    TopologyRegistry::with_builtin_generators().make(TopologySpec{type, std::move(params)}, fabric(gpus, ports));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::multiset<Edge> edge_set(const Topology& t) { return {t.edges().begin(), t.edges().end()}; }

// Sizes of the weakly... here strongly connected components of a symmetric graph,
// read off the hop-distance matrix.
std::vector<int> component_sizes(const Topology& t) {
  const auto hops = hop_distances(t);
  std::vector<bool> done(static_cast<size_t>(t.gpus()), false);
  std::vector<int> sizes;
  for (int u = 0; u < t.gpus(); ++u) {
    if (done[static_cast<size_t>(u)]) continue;
    int size = 0;
    for (int v = 0; v < t.gpus(); ++v) {
      if (hops[static_cast<size_t>(u)][static_cast<size_t>(v)] >= 0) {
        done[static_cast<size_t>(v)] = true;
        ++size;
      }
    }
    sizes.push_back(size);
  }
  return sizes;
}

int ceil_log(int base, int n) {
  int power = 1, k = 0;
  while (power < n) {
    power *= base;
    ++k;
  }
  return k;
}

TEST(RingGenerator, UnidirectionalAndBidirectional) {
  const Topology uni = make("ring", 5);
  EXPECT_EQ(edge_set(uni), (std::multiset<Edge>{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}));
  EXPECT_EQ(diameter(uni), 4);
  const Topology bi = make("ring", 5, {{"bidirectional", "true"}});
  EXPECT_EQ(bi.edges().size(), 10u);
  EXPECT_EQ(diameter(bi), 2);
  // The default follows fabric.circuits.
  EXPECT_EQ(make("ring", 5, {}, 2, CircuitKind::bidirectional), bi);
  // n = 2: the forward circuits already join both ways.
  EXPECT_EQ(make("ring", 2, {{"bidirectional", "true"}}).edges().size(), 2u);
}

TEST(ShiftedRingGenerator, ShiftsTheBaseSequence) {
  // Figure 6 style: base sigma = <0, 2, 3, 6, 1, 7, 4, 5>, 3-shift: sigma_i -> sigma_{i+3}.
  const std::vector<Node> sigma = {0, 2, 3, 6, 1, 7, 4, 5};
  const Topology t = make("shifted_ring", 8, {{"shift", "3"}, {"base", "[0, 2, 3, 6, 1, 7, 4, 5]"}});
  std::multiset<Edge> expected;
  for (size_t i = 0; i < 8; ++i) expected.insert({sigma[i], sigma[(i + 3) % 8]});
  EXPECT_EQ(edge_set(t), expected);
  EXPECT_TRUE(is_strongly_connected(t));  // gcd(3, 8) = 1: still one n-cycle
  EXPECT_TRUE(is_regular(t, 1));
  // An even shift on 8 nodes breaks the cycle into gcd(8, 2) = 2 cycles of 4.
  const Topology split = make("shifted_ring", 8, {{"shift", "2"}});
  EXPECT_EQ(component_sizes(split), (std::vector<int>{4, 4}));
  // The identity base with shift n-1 is the reversed ring.
  std::multiset<Edge> reversed;
  for (Node u = 0; u < 8; ++u) reversed.insert({u, static_cast<Node>((u + 7) % 8)});
  EXPECT_EQ(edge_set(make("shifted_ring", 8, {{"shift", "7"}})), reversed);
}

TEST(ShiftedRingGenerator, BadParameters) {
  EXPECT_NE(error_of("shifted_ring", 8, {{"shift", "8"}}).find("'shift'"), std::string::npos);
  EXPECT_NE(error_of("shifted_ring", 4, {{"base", "[0, 1, 2]"}}).find("'base'"), std::string::npos);
  EXPECT_NE(error_of("shifted_ring", 4, {{"base", "[0, 1, 1, 2]"}}).find("permutation"), std::string::npos);
}

TEST(CirculantGenerator, FormulaAndConnectivityIffGcdIsOne) {
  const Topology t = make("circulant", 10, {{"generators", "[1, 4]"}});
  std::multiset<Edge> expected;
  for (Node u = 0; u < 10; ++u) {
    expected.insert({u, static_cast<Node>((u + 1) % 10)});
    expected.insert({u, static_cast<Node>((u + 4) % 10)});
  }
  EXPECT_EQ(edge_set(t), expected);
  for (int n = 2; n <= 18; ++n) {
    for (int a = 1; a < n; ++a) {
      for (int b = a; b < n; ++b) {
        const Topology c = make("circulant", n, {{"generators", std::to_string(a) + "," + std::to_string(b)}});
        const int g = std::gcd(n, std::gcd(a, b));
        EXPECT_EQ(is_strongly_connected(c), g == 1) << "n=" << n << " S={" << a << "," << b << "}";
        if (g != 1) {
          EXPECT_EQ(component_sizes(c).size(), static_cast<size_t>(g));
        }
      }
    }
  }
}

TEST(CirculantGenerator, BadParameters) {
  EXPECT_NE(error_of("circulant", 8, {{"generators", "[]"}}).find("must not be empty"), std::string::npos);
  EXPECT_NE(error_of("circulant", 8, {}).find("'generators': is required"), std::string::npos);
  EXPECT_NE(error_of("circulant", 8, {{"generators", "[1, 8]"}}).find("self-loop"), std::string::npos);
  EXPECT_NE(error_of("circulant", 8, {{"generators", "[1, x]"}}).find("'generators'"), std::string::npos);
}

TEST(GeneralizedKautzGenerator, FormulaDegreesAndDiameter) {
  for (int d = 2; d <= 4; ++d) {
    for (int n = d + 1; n <= 64; ++n) {
      const Topology t = make("generalized_kautz", n, {{"degree", std::to_string(d)}});
      std::multiset<Edge> expected;
      int self_loops = 0;
      for (int x = 0; x < n; ++x) {
        for (int a = 1; a <= d; ++a) {
          const int y = ((-d * x - a) % n + n) % n;
          if (y == x) {
            ++self_loops;
          } else {
            expected.insert({static_cast<Node>(x), static_cast<Node>(y)});
          }
        }
      }
      ASSERT_EQ(edge_set(t), expected) << "n=" << n << " d=" << d;
      EXPECT_EQ(static_cast<int>(t.edges().size()), n * d - self_loops);
      for (Node u = 0; u < static_cast<Node>(n); ++u) {
        EXPECT_LE(t.out_degree(u), d);
        EXPECT_GE(t.out_degree(u), d - 1);  // at most one self-loop per node is dropped
      }
      // Imase-Itoh: diameter <= ceil(log_d n).
      EXPECT_LE(diameter(t), ceil_log(d, n)) << "n=" << n << " d=" << d;
      EXPECT_GT(diameter(t), 0);
    }
  }
}

TEST(GeneralizedKautzGenerator, KautzOrderHasDiameterD) {
  // n = d^D + d^(D-1) is the Kautz graph K(d, D), diameter exactly D.
  EXPECT_EQ(diameter(make("generalized_kautz", 12, {{"degree", "2"}})), 3);
  EXPECT_EQ(diameter(make("generalized_kautz", 36, {{"degree", "3"}})), 3);
}

TEST(GeneralizedKautzGenerator, BadDegree) {
  const std::string msg = error_of("generalized_kautz", 8, {{"degree", "8"}});
  EXPECT_NE(msg.find("'degree'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1..7"), std::string::npos) << msg;
  // Default degree is fabric.ports; over the port limit the registry names the node.
  EXPECT_NE(error_of("generalized_kautz", 8, {{"degree", "3"}}, 2).find("node"), std::string::npos);
}

bool isomorphic(const Topology& a, const Topology& b) {
  if (a.gpus() != b.gpus() || a.edges().size() != b.edges().size()) return false;
  std::vector<Node> p(static_cast<size_t>(a.gpus()));
  std::iota(p.begin(), p.end(), Node{0});
  const std::multiset<Edge> target = edge_set(b);
  do {
    std::multiset<Edge> mapped;
    for (const Edge& e : a.edges()) mapped.insert({p[e.first], p[e.second]});
    if (mapped == target) return true;
  } while (std::next_permutation(p.begin(), p.end()));
  return false;
}

TEST(DeBruijnGenerator, FormulaAndIsomorphicToGeneralizedKautzAtPowers) {
  const Topology t = make("de_bruijn", 8, {{"degree", "2"}});
  std::multiset<Edge> expected;
  for (int x = 0; x < 8; ++x) {
    for (int a = 0; a < 2; ++a) {
      const int y = (2 * x + a) % 8;
      if (y != x) expected.insert({static_cast<Node>(x), static_cast<Node>(y)});
    }
  }
  EXPECT_EQ(edge_set(t), expected);  // 0 -> 0 and 7 -> 7 dropped
  EXPECT_EQ(diameter(t), 3);         // log_2 8
  // The all-to-all paper (footnote 3): GenKautz is isomorphic to de Bruijn when n = k^D.
  for (auto [n, d] : {std::pair{4, 2}, std::pair{8, 2}, std::pair{9, 3}}) {
    EXPECT_TRUE(isomorphic(make("de_bruijn", n, {{"degree", std::to_string(d)}}),
                           make("generalized_kautz", n, {{"degree", std::to_string(d)}})))
        << "n=" << n << " d=" << d;
  }
  // ... and not in general (n = 12, d = 2: Kautz, not de Bruijn: different diameters).
  EXPECT_NE(diameter(make("de_bruijn", 12, {{"degree", "2"}})), 3);
}

TEST(TorusGenerator, DimensionsDegreeAndDiameter) {
  const Topology t = make("torus", 16, {{"dims", "4x4"}});
  EXPECT_TRUE(is_regular(t, 4));
  EXPECT_EQ(diameter(t), 4);
  EXPECT_EQ(t.multiplicity(0, 3), 1);   // wrap-around in a row
  EXPECT_EQ(t.multiplicity(0, 12), 1);  // wrap-around in a column
  EXPECT_EQ(diameter(make("torus", 64, {{"dims", "4x4x4"}})), 6);
  EXPECT_EQ(diameter(make("torus", 30, {{"dims", "[2, 3, 5]"}})), 1 + 1 + 2);
  // Factored from n: 12 = 3x4, diameter 1 + 2.
  const Topology factored = make("torus", 12);
  EXPECT_EQ(factored.name(), "torus(3x4)");
  EXPECT_EQ(diameter(factored), 3);
  EXPECT_EQ(make("torus", 64, {{"dimensions", "3"}}).name(), "torus(4x4x4)");
  // A dimension of 2 has one link per neighbour pair: degree 3 on 2x4.
  EXPECT_TRUE(is_regular(make("torus", 8, {{"dims", "2x4"}}), 3));
}

TEST(GridGenerator, NoWrapAround) {
  const Topology g = make("grid", 16, {{"dims", "4x4"}});
  EXPECT_EQ(diameter(g), 6);
  EXPECT_EQ(g.edges().size(), static_cast<size_t>(2 * (4 * 3 + 4 * 3)));
  EXPECT_EQ(g.out_degree(0), 2);  // corner
  EXPECT_EQ(g.out_degree(5), 4);  // inside
  EXPECT_EQ(g.multiplicity(0, 3), 0);
  EXPECT_EQ(diameter(make("grid", 24, {{"dims", "2x3x4"}})), 1 + 2 + 3);
}

TEST(TorusGenerator, BadDimensions) {
  const std::string msg = error_of("torus", 15, {{"dims", "4x4"}});
  EXPECT_NE(msg.find("'dims'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("16 nodes"), std::string::npos) << msg;
  EXPECT_NE(error_of("grid", 16, {{"dims", "16"}}).find("2 or 3 dimensions"), std::string::npos);
  EXPECT_NE(error_of("torus", 16, {{"dimensions", "4"}}).find("'dimensions'"), std::string::npos);
  EXPECT_NE(error_of("torus", 16, {{"dims", "4xa"}}).find("'dims'"), std::string::npos);
}

TEST(HypercubeGenerator, DegreeAndDiameter) {
  const Topology h = make("hypercube", 16);
  EXPECT_TRUE(is_regular(h, 4));
  EXPECT_EQ(diameter(h), 4);
  EXPECT_EQ(h.multiplicity(5, 5 ^ 8), 1);
  EXPECT_NE(error_of("hypercube", 12, {}).find("power-of-two"), std::string::npos);
}

TEST(CompleteGenerator, EveryOrderedPair) {
  const Topology c = make("complete", 6);
  EXPECT_EQ(c.edges().size(), 30u);
  EXPECT_EQ(diameter(c), 1);
  EXPECT_TRUE(is_regular(c, 5));
}

TEST(SubringsGenerator, ResidueClassesOfSizeNOver3k) {
  for (int k = 0; k <= 2; ++k) {
    const Topology t = make("subrings", 27, {{"phase", std::to_string(k)}});
    const int rings = k == 0 ? 1 : (k == 1 ? 3 : 9);
    EXPECT_EQ(component_sizes(t), std::vector<int>(static_cast<size_t>(rings), 27 / rings)) << "phase " << k;
    EXPECT_TRUE(is_regular(t, 2));
    // Node u's neighbours are u +- 3^k: its residue class.
    EXPECT_EQ(t.multiplicity(0, k == 0 ? 1 : (k == 1 ? 3 : 9)), 1);
  }
  // Residue classes of 2 nodes get two parallel circuits (one per transceiver).
  const Topology pairs = make("subrings", 6, {{"m", "3"}});
  EXPECT_EQ(pairs.multiplicity(0, 3), 2);
  EXPECT_NE(error_of("subrings", 9, {{"phase", "2"}}).find("multiple of n"), std::string::npos);
  EXPECT_NE(error_of("subrings", 9, {{"phase", "1"}, {"m", "3"}}).find("either m or phase"), std::string::npos);
}

TEST(RandomRegularGenerator, SeededRegularWithoutLoopsOrParallelCircuits) {
  const Topology a = make("random_regular", 64, {{"degree", "4"}}, 64, CircuitKind::directed, 7);
  EXPECT_TRUE(is_regular(a, 4));
  const std::set<Edge> distinct(a.edges().begin(), a.edges().end());
  EXPECT_EQ(distinct.size(), a.edges().size());
  for (const Edge& e : a.edges()) EXPECT_NE(e.first, e.second);
  EXPECT_TRUE(is_strongly_connected(a));
  EXPECT_EQ(a, make("random_regular", 64, {{"degree", "4"}}, 64, CircuitKind::directed, 7));
  EXPECT_FALSE(a == make("random_regular", 64, {{"degree", "4"}}, 64, CircuitKind::directed, 8));
  // An explicit seed parameter wins over the experiment seed.
  EXPECT_EQ(make("random_regular", 64, {{"degree", "4"}, {"seed", "7"}}, 64, CircuitKind::directed, 99), a);
  EXPECT_NE(error_of("random_regular", 4, {{"degree", "4"}}).find("'degree'"), std::string::npos);
}

TEST(FromEdgesGenerator, ListAndFile) {
  const Topology t = make("from_edges", 3, {{"edges", "[[0, 1], [1, 2], [1, 2]]"}});
  EXPECT_EQ(t.multiplicity(1, 2), 2);
  const std::string path = ::testing::TempDir() + "/photonsim_edges.txt";
  std::ofstream(path) << "# a line\n0 1\n\n1 2  # trailing comment\n2 0\n";
  EXPECT_EQ(make("from_edges", 3, {{"file", path}}).edges().size(), 3u);
  std::ofstream(path) << "0 1\n1 x\n";
  EXPECT_NE(error_of("from_edges", 3, {{"file", path}}).find(path + ":2:"), std::string::npos);
  std::filesystem::remove(path);
  EXPECT_NE(error_of("from_edges", 3, {{"edges", "[[0, 3]]"}}).find("'edges'"), std::string::npos);
  EXPECT_NE(error_of("from_edges", 3, {{"edges", "[[0, 1, 2]]"}}).find("pairs"), std::string::npos);
  EXPECT_NE(error_of("from_edges", 3, {}).find("exactly one of"), std::string::npos);
  EXPECT_NE(
      error_of("from_edges", 3, {{"file", "/nonexistent/e.txt"}}).find("cannot read edge file '/nonexistent/e.txt'"),
      std::string::npos);
}

TEST(FromStepGenerator, OnlyTheSynthesizerBuildsIt) {
  EXPECT_NE(error_of("from_step", 4, {}).find("synthesis.static_topology"), std::string::npos);
}

TEST(ComponentParams, UnknownParameterListsTheValidOnes) {
  const std::string msg = error_of("torus", 16, {{"dim", "4x4"}});
  EXPECT_NE(msg.find("no parameter 'dim'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("valid: dims, dimensions"), std::string::npos) << msg;
}

}  // namespace
}  // namespace photonsim
