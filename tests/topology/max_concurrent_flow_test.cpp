#include "topology/flow/max_concurrent_flow.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "topology/demand_matrix.h"
#include "topology/flow/source_flow_lp.h"
#include "topology/topology.h"
#include "topology/translation_symmetry.h"

namespace photonsim {
namespace {

constexpr double kExact = 1e-9;

Node node(int i) { return static_cast<Node>(i); }

// Circuits u -> u + o (mod n) for every node u and every offset o.
Topology circulant(const std::string& name, int n, const std::vector<int>& offsets) {
  std::vector<Edge> edges;
  for (int u = 0; u < n; ++u) {
    for (int o : offsets) edges.push_back({node(u), node(((u + o) % n + n) % n)});
  }
  return Topology(name, n, edges);
}

Topology unidirectional_ring(int n) { return circulant("uni-ring", n, {1}); }
Topology bidirectional_ring(int n) { return circulant("bi-ring", n, {1, -1}); }

Topology complete_digraph(int n) {
  std::vector<Edge> edges;
  for (int u = 0; u < n; ++u) {
    for (int v = 0; v < n; ++v) {
      if (u != v) edges.push_back({node(u), node(v)});
    }
  }
  return Topology("complete", n, edges);
}

// Bidirectional a x b mesh without wrap-around, row-major ids.
Topology max_concurrent_flow_grid(int a, int b) {
  std::vector<Edge> edges;
  for (int r = 0; r < a; ++r) {
    for (int c = 0; c < b; ++c) {
      const int u = r * b + c;
      if (c + 1 < b) edges.push_back({node(u), node(u + 1)});
      if (c > 0) edges.push_back({node(u), node(u - 1)});
      if (r + 1 < a) edges.push_back({node(u), node(u + b)});
      if (r > 0) edges.push_back({node(u), node(u - b)});
    }
  }
  return Topology("grid", a * b, edges);
}

// Bidirectional a x b torus, row-major ids.
Topology max_concurrent_flow_torus(int a, int b) {
  std::vector<Edge> edges;
  for (int r = 0; r < a; ++r) {
    for (int c = 0; c < b; ++c) {
      const int u = r * b + c;
      edges.push_back({node(u), node(r * b + (c + 1) % b)});
      edges.push_back({node(u), node(r * b + (c + b - 1) % b)});
      edges.push_back({node(u), node((r + 1) % a * b + c)});
      edges.push_back({node(u), node((r + a - 1) % a * b + c)});
    }
  }
  return Topology("torus", a * b, edges);
}

Topology max_concurrent_flow_hypercube(int dimensions) {
  std::vector<Edge> edges;
  for (int u = 0; u < (1 << dimensions); ++u) {
    for (int i = 0; i < dimensions; ++i) edges.push_back({node(u), node(u ^ (1 << i))});
  }
  return Topology("hypercube", 1 << dimensions, edges);
}

// Imase-Itoh generalized Kautz digraph: x -> -d*x - a mod n, a = 1..d,
// self-loops dropped (as the generalized_kautz generator does).
Topology generalized_kautz(int n, int d) {
  std::vector<Edge> edges;
  for (int x = 0; x < n; ++x) {
    for (int a = 1; a <= d; ++a) {
      const int y = ((-d * x - a) % n + n) % n;
      if (y != x) edges.push_back({node(x), node(y)});
    }
  }
  return Topology("generalized-kautz", n, edges);
}

// The same circuits with node u renamed to perm[u].
Topology relabelled(const Topology& t, const std::vector<int>& perm) {
  std::vector<Edge> edges;
  for (const Edge& e : t.edges()) edges.push_back({node(perm[e.first]), node(perm[e.second])});
  return Topology(t.name() + "-relabelled", t.gpus(), edges);
}

void expect_same_bytes(const ConcurrentFlow& a, const ConcurrentFlow& b) {
  EXPECT_EQ(a.theta, b.theta);
  EXPECT_EQ(a.edge_flow, b.edge_flow);
  ASSERT_EQ(a.paths.size(), b.paths.size());
  for (size_t s = 0; s < a.paths.size(); ++s) {
    ASSERT_EQ(a.paths[s].size(), b.paths[s].size());
    for (size_t u = 0; u < a.paths[s].size(); ++u) {
      ASSERT_EQ(a.paths[s][u].size(), b.paths[s][u].size());
      for (size_t i = 0; i < a.paths[s][u].size(); ++i) {
        EXPECT_EQ(a.paths[s][u][i].nodes, b.paths[s][u][i].nodes);
        EXPECT_EQ(a.paths[s][u][i].links, b.paths[s][u][i].links);
        EXPECT_EQ(a.paths[s][u][i].amount, b.paths[s][u][i].amount);
      }
    }
  }
}

// Cyclic recursive doubling, step i (from 1): u sends to u + 2^(i-1) mod n.
DemandMatrix recursive_doubling_step(int n, int step) {
  DemandMatrix d(n);
  for (int u = 0; u < n; ++u) d.set(node(u), node((u + (1 << (step - 1))) % n), 1.0);
  return d;
}

// Hop counts from s by breadth-first search (-1 when unreachable).
std::vector<int> hops_from(const Topology& t, Node s) {
  std::vector<int> dist(static_cast<size_t>(t.gpus()), -1);
  std::vector<Node> frontier{s};
  dist[s] = 0;
  while (!frontier.empty()) {
    std::vector<Node> next;
    for (Node u : frontier) {
      for (const Edge& e : t.edges()) {
        if (e.first == u && dist[e.second] < 0) {
          dist[e.second] = dist[u] + 1;
          next.push_back(e.second);
        }
      }
    }
    frontier = next;
  }
  return dist;
}

// Every path is a simple s -> t walk over real circuits, paths carry exactly
// theta * D(s,t), edge_flow is their sum, and no circuit carries more than 1.
void expect_valid_flow(const Topology& topology, const DemandMatrix& demand, const ConcurrentFlow& flow) {
  const int n = topology.gpus();
  const size_t edge_count = topology.edges().size();
  ASSERT_EQ(flow.edge_flow.size(), static_cast<size_t>(n));
  ASSERT_EQ(flow.paths.size(), static_cast<size_t>(n));
  std::vector<double> total(edge_count, 0.0);
  for (int s = 0; s < n; ++s) {
    ASSERT_EQ(flow.edge_flow[s].size(), edge_count);
    ASSERT_EQ(flow.paths[s].size(), static_cast<size_t>(n));
    std::vector<double> from_paths(edge_count, 0.0);
    for (int t = 0; t < n; ++t) {
      const std::vector<FlowPath>& paths = flow.paths[s][t];
      const double want = s == t ? 0.0 : flow.theta * demand.at(node(s), node(t));
      double carried = 0.0;
      for (const FlowPath& p : paths) {
        ASSERT_GE(p.nodes.size(), 2u);
        EXPECT_EQ(p.nodes.front(), node(s));
        EXPECT_EQ(p.nodes.back(), node(t));
        ASSERT_EQ(p.links.size(), p.nodes.size() - 1);
        for (size_t i = 0; i < p.links.size(); ++i) {
          ASSERT_LT(p.links[i], edge_count);
          EXPECT_EQ(topology.edges()[p.links[i]], (Edge{p.nodes[i], p.nodes[i + 1]}))
              << "path " << s << "->" << t << " link " << i;
          from_paths[p.links[i]] += p.amount;
        }
        EXPECT_EQ(std::set<Node>(p.nodes.begin(), p.nodes.end()).size(), p.nodes.size())
            << "path " << s << "->" << t << " repeats a node";
        EXPECT_GT(p.amount, 0.0);
        carried += p.amount;
      }
      EXPECT_NEAR(carried, want, kExact * std::max(1.0, want)) << "pair " << s << "->" << t;
    }
    for (size_t e = 0; e < edge_count; ++e) {
      EXPECT_NEAR(flow.edge_flow[s][e], from_paths[e], 1e-12);
      EXPECT_GE(flow.edge_flow[s][e], 0.0);
      total[e] += flow.edge_flow[s][e];
    }
  }
  for (size_t e = 0; e < edge_count; ++e) EXPECT_LE(total[e], 1.0 + kExact) << "edge " << e;
}

std::string max_concurrent_flow_error_of(const Topology& t, const DemandMatrix& d) {
  try {
    max_concurrent_flow(t, d);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(DemandMatrix, StartsZeroAndStoresEntries) {
  DemandMatrix d(3);
  EXPECT_EQ(d.gpus(), 3);
  EXPECT_EQ(d.at(0, 1), 0.0);
  EXPECT_EQ(d.max_off_diagonal(), 0.0);
  d.set(0, 1, 2.5);
  d.add(0, 1, 1.0);
  d.set(2, 2, 7.0);  // stored but never counted as demand
  EXPECT_EQ(d.at(0, 1), 3.5);
  EXPECT_EQ(d.at(1, 0), 0.0);
  EXPECT_EQ(d.max_off_diagonal(), 3.5);
}

TEST(DemandMatrix, AlltoallIsOneOffTheDiagonal) {
  const DemandMatrix d = DemandMatrix::alltoall(4);
  for (Node s = 0; s < 4; ++s) {
    for (Node t = 0; t < 4; ++t) EXPECT_EQ(d.at(s, t), s == t ? 0.0 : 1.0);
  }
}

TEST(DemandMatrix, RejectsBadValuesAndNodes) {
  DemandMatrix d(3);
  EXPECT_THROW(d.set(0, 1, -1.0), Error);
  EXPECT_THROW(d.set(0, 1, std::numeric_limits<double>::quiet_NaN()), Error);
  EXPECT_THROW(d.set(0, 1, std::numeric_limits<double>::infinity()), Error);
  EXPECT_THROW(d.add(0, 1, -0.5), Error);
  EXPECT_THROW(d.set(3, 0, 1.0), Error);
  EXPECT_THROW(d.at(0, 3), Error);
  EXPECT_THROW(DemandMatrix(-1), Error);
  try {
    d.set(2, 1, -1.0);
    FAIL() << "negative demand accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("D(2,1)"), std::string::npos) << e.what();
  }
  EXPECT_EQ(d.at(0, 1), 0.0);  // rejected writes leave the matrix unchanged
}

TEST(MaxConcurrentFlow, UnidirectionalRingAlltoall) {
  // Each source's demands use 1 + 2 + ... + (n-1) hops on n unit circuits.
  for (int n = 2; n <= 12; ++n) {
    const Topology ring = unidirectional_ring(n);
    const DemandMatrix d = DemandMatrix::alltoall(n);
    const ConcurrentFlow flow = max_concurrent_flow(ring, d);
    EXPECT_NEAR(flow.theta, 2.0 / (n * (n - 1)), kExact) << "n=" << n;
    expect_valid_flow(ring, d, flow);
  }
}

TEST(MaxConcurrentFlow, BidirectionalRingAlltoall) {
  // Shortest paths spread evenly over all 2n circuits, so theta meets the
  // hop-count bound: capacity 2n over n * sum_h min(h, n-h).
  for (int n = 3; n <= 12; ++n) {
    const Topology ring = bidirectional_ring(n);
    const DemandMatrix d = DemandMatrix::alltoall(n);
    int hop_sum = 0;
    for (int h = 1; h < n; ++h) hop_sum += std::min(h, n - h);
    const ConcurrentFlow flow = max_concurrent_flow(ring, d);
    EXPECT_NEAR(flow.theta, 2.0 * n / (n * hop_sum), kExact) << "n=" << n;
    expect_valid_flow(ring, d, flow);
  }
}

TEST(MaxConcurrentFlow, CompleteDigraphRoutesAlltoallDirectly) {
  for (int n = 2; n <= 8; ++n) {
    const Topology complete = complete_digraph(n);
    const DemandMatrix d = DemandMatrix::alltoall(n);
    const ConcurrentFlow flow = max_concurrent_flow(complete, d);
    EXPECT_NEAR(flow.theta, 1.0, kExact) << "n=" << n;
    expect_valid_flow(complete, d, flow);
  }
}

TEST(MaxConcurrentFlow, RecursiveDoublingOnUnidirectionalRing) {
  // Step i sends 2^(i-1) hops around the ring over each circuit: congestion
  // 1x, 2x, 4x, 8x.
  const int n = 16;
  const Topology ring = unidirectional_ring(n);
  for (int step = 1; step <= 4; ++step) {
    const DemandMatrix d = recursive_doubling_step(n, step);
    const ConcurrentFlow flow = max_concurrent_flow(ring, d);
    EXPECT_NEAR(flow.theta, 1.0 / (1 << (step - 1)), kExact) << "step " << step;
    expect_valid_flow(ring, d, flow);
  }
}

TEST(MaxConcurrentFlow, HarvestTable1CongestionOfEachSchedule) {
  // Harvest section 3.2, Table 1: recursive doubling on 8 GPUs, G_i being the
  // circuits of step i (u -> u + 2^(i-1)), G_1 the ring. The paper's worst
  // step congestion (1/theta) is 4x for G1,G1,G1, 2x for G1,G2,G2 and 1x for
  // G1,G2,G3. These numbers hold for a unidirectional ring; a bidirectional
  // one would split the long hops both ways (step 3 would be 2x).
  const int n = 8;
  auto g = [&](int i) { return circulant("G" + std::to_string(i), n, {1 << (i - 1)}); };
  auto worst_congestion = [&](const std::vector<int>& schedule) {
    double worst = 0.0;
    for (int step = 1; step <= 3; ++step) {
      const ConcurrentFlow flow = max_concurrent_flow(g(schedule[step - 1]), recursive_doubling_step(n, step));
      worst = std::max(worst, 1.0 / flow.theta);
    }
    return worst;
  };
  EXPECT_NEAR(worst_congestion({1, 1, 1}), 4.0, kExact);
  EXPECT_NEAR(worst_congestion({1, 2, 2}), 2.0, kExact);
  EXPECT_NEAR(worst_congestion({1, 2, 3}), 1.0, kExact);
  // Per step on the static ring: 1x, 2x, 4x.
  for (int step = 1; step <= 3; ++step) {
    EXPECT_NEAR(max_concurrent_flow(g(1), recursive_doubling_step(n, step)).theta, 1.0 / (1 << (step - 1)), kExact);
  }
}

TEST(MaxConcurrentFlow, ParallelCircuitsAddCapacity) {
  DemandMatrix pair(2);
  pair.set(0, 1, 1.0);
  EXPECT_NEAR(max_concurrent_flow(Topology("one", 2, {{0, 1}}), pair).theta, 1.0, kExact);
  const Topology doubled("two", 2, {{0, 1}, {0, 1}});
  const ConcurrentFlow flow = max_concurrent_flow(doubled, pair);
  EXPECT_NEAR(flow.theta, 2.0, kExact);
  expect_valid_flow(doubled, pair, flow);

  for (int n = 3; n <= 6; ++n) {
    const DemandMatrix d = DemandMatrix::alltoall(n);
    const Topology ring2 = circulant("ring-x2", n, {1, 1});
    EXPECT_EQ(ring2.multiplicity(0, 1), 2);
    const ConcurrentFlow doubled_ring = max_concurrent_flow(ring2, d);
    EXPECT_NEAR(doubled_ring.theta, 2.0 * max_concurrent_flow(unidirectional_ring(n), d).theta, kExact);
    expect_valid_flow(ring2, d, doubled_ring);
  }
}

TEST(MaxConcurrentFlow, ThetaScalesInverselyWithDemandUnits) {
  const Topology ring = bidirectional_ring(6);
  DemandMatrix blocks(6), bytes(6);
  for (Node s = 0; s < 6; ++s) {
    for (Node t = 0; t < 6; ++t) {
      if (s == t) continue;
      const double v = 1.0 + (s * 7 + t * 3) % 5;  // uneven demand
      blocks.set(s, t, v);
      bytes.set(s, t, v * 4194304.0);
    }
  }
  const ConcurrentFlow a = max_concurrent_flow(ring, blocks);
  const ConcurrentFlow b = max_concurrent_flow(ring, bytes);
  EXPECT_GT(a.theta, 0.0);
  EXPECT_NEAR(b.theta * 4194304.0, a.theta, kExact * a.theta);
  expect_valid_flow(ring, blocks, a);
  expect_valid_flow(ring, bytes, b);
}

TEST(MaxConcurrentFlow, SparseDemandIgnoresDiagonalAndIdleSources) {
  const Topology ring = unidirectional_ring(5);
  DemandMatrix d(5);
  d.set(1, 4, 1.0);  // three hops, alone on the ring
  d.set(3, 3, 9.0);  // diagonal: ignored
  const ConcurrentFlow flow = max_concurrent_flow(ring, d);
  EXPECT_NEAR(flow.theta, 1.0, kExact);
  expect_valid_flow(ring, d, flow);
  ASSERT_EQ(flow.paths[1][4].size(), 1u);
  EXPECT_EQ(flow.paths[1][4][0].nodes, (std::vector<Node>{1, 2, 3, 4}));
  for (double f : flow.edge_flow[0]) EXPECT_EQ(f, 0.0);
}

TEST(MaxConcurrentFlow, SameInputGivesSameBytes) {
  const Topology t = circulant("circ", 12, {1, 3, 5});
  const DemandMatrix d = DemandMatrix::alltoall(12);
  const ConcurrentFlow a = max_concurrent_flow(t, d);
  const ConcurrentFlow b = max_concurrent_flow(t, d);
  EXPECT_EQ(a.theta, b.theta);
  EXPECT_EQ(a.edge_flow, b.edge_flow);
  ASSERT_EQ(a.paths.size(), b.paths.size());
  for (size_t s = 0; s < a.paths.size(); ++s) {
    for (size_t u = 0; u < a.paths[s].size(); ++u) {
      ASSERT_EQ(a.paths[s][u].size(), b.paths[s][u].size());
      for (size_t i = 0; i < a.paths[s][u].size(); ++i) {
        EXPECT_EQ(a.paths[s][u][i].nodes, b.paths[s][u][i].nodes);
        EXPECT_EQ(a.paths[s][u][i].links, b.paths[s][u][i].links);
        EXPECT_EQ(a.paths[s][u][i].amount, b.paths[s][u][i].amount);
      }
    }
  }
  expect_valid_flow(t, d, a);
}

TEST(MaxConcurrentFlow, RejectsMismatchedSize) {
  const std::string e = max_concurrent_flow_error_of(unidirectional_ring(4), DemandMatrix::alltoall(5));
  EXPECT_NE(e.find("5 GPUs"), std::string::npos) << e;
  EXPECT_NE(e.find("has 4"), std::string::npos) << e;
}

TEST(MaxConcurrentFlow, RejectsAllZeroDemand) {
  DemandMatrix d(4);
  EXPECT_NE(max_concurrent_flow_error_of(unidirectional_ring(4), d).find("all zero"), std::string::npos);
  d.set(2, 2, 5.0);  // the diagonal is not demand
  EXPECT_NE(max_concurrent_flow_error_of(unidirectional_ring(4), d).find("unbounded"), std::string::npos);
}

// One circuit out of every GPU: each pair's walk is its only path, so no LP
// runs - and the answer is the LP's to the bit. The same six-GPU cycle with a
// spur (node 6 hangs off node 0 with a circuit back) goes to the LPs, which
// leave the spur idle: the same theta and paths.
TEST(MaxConcurrentFlow, ForcedWalksGiveTheLPsAnswer) {
  std::vector<Edge> cycle;
  for (Node v = 0; v < 6; ++v) cycle.push_back({v, static_cast<Node>((v + 1) % 6)});
  cycle.push_back({6, 0});
  std::vector<Edge> with_spur = cycle;
  with_spur.push_back({0, 6});
  DemandMatrix d(7);
  d.set(0, 3, 2.0);
  d.set(4, 1, 1.0);
  d.set(2, 5, 3.0);
  d.set(6, 4, 1.0);
  const ConcurrentFlow forced = max_concurrent_flow(Topology("cycle", 7, cycle), d);
  const ConcurrentFlow solved = max_concurrent_flow(Topology("cycle with spur", 7, with_spur), d);
  EXPECT_EQ(forced.theta, solved.theta);
  for (Node s = 0; s < 7; ++s) {
    for (Node t = 0; t < 7; ++t) {
      ASSERT_EQ(forced.paths[s][t].size(), solved.paths[s][t].size()) << s << "->" << t;
      for (size_t p = 0; p < forced.paths[s][t].size(); ++p) {
        EXPECT_EQ(forced.paths[s][t][p].nodes, solved.paths[s][t][p].nodes) << s << "->" << t;
        EXPECT_EQ(forced.paths[s][t][p].amount, solved.paths[s][t][p].amount) << s << "->" << t;
      }
    }
  }
}

TEST(MaxConcurrentFlow, ForcedWalkThatNeverArrivesNamesThePair) {
  // Shift 2 on 6 GPUs: two cycles, so 1 never reaches 4.
  const Topology shifted("shifted_ring(2)", 6, {{0, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 0}, {5, 1}});
  DemandMatrix d(6);
  d.set(0, 4, 1.0);
  EXPECT_NEAR(max_concurrent_flow(shifted, d).theta, 1.0, kExact);
  d.set(1, 4, 1.0);
  const std::string e = max_concurrent_flow_error_of(shifted, d);
  EXPECT_NE(e.find("no route from node 1 to node 4 for demand D(1,4)"), std::string::npos) << e;
  EXPECT_NE(e.find("'shifted_ring(2)'"), std::string::npos) << e;
}

// max_concurrent_flow_theta keeps no paths where the walks are forced, yet
// gives the full solver's theta to the bit and its errors word for word;
// elsewhere it is the full solver.
TEST(MaxConcurrentFlow, ThetaAloneIsTheFullSolversBits) {
  Rng rng(11);
  for (int n : {2, 5, 9, 16}) {
    // A random Hamiltonian cycle (one circuit out of every GPU) and random demand.
    std::vector<Node> order(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = static_cast<Node>(i);
    for (int i = n - 1; i > 0; --i) std::swap(order[static_cast<size_t>(i)], order[rng.uniform(i + 1)]);
    std::vector<Edge> edges;
    for (int i = 0; i < n; ++i)
      edges.push_back({order[static_cast<size_t>(i)], order[static_cast<size_t>((i + 1) % n)]});
    std::sort(edges.begin(), edges.end());
    const Topology cycle("cycle", n, edges);
    ASSERT_TRUE(cycle.one_circuit_out_of_every_gpu());
    DemandMatrix d(n);
    for (Node s = 0; s < static_cast<Node>(n); ++s) {
      for (Node t = 0; t < static_cast<Node>(n); ++t) {
        if (s != t && rng.uniform(4) > 0) d.set(s, t, 0.1 + rng.uniform_real() * 7.0);
      }
    }
    EXPECT_EQ(max_concurrent_flow_theta(cycle, d), max_concurrent_flow(cycle, d).theta) << "n=" << n;
    EXPECT_EQ(max_concurrent_flow_theta(unidirectional_ring(n), DemandMatrix::alltoall(n)),
              max_concurrent_flow(unidirectional_ring(n), DemandMatrix::alltoall(n)).theta)
        << "n=" << n;
  }
  const Topology bidirectional = bidirectional_ring(6);
  EXPECT_EQ(max_concurrent_flow_theta(bidirectional, DemandMatrix::alltoall(6)),
            max_concurrent_flow(bidirectional, DemandMatrix::alltoall(6)).theta);
  const auto theta_error = [](const Topology& t, const DemandMatrix& d) {
    try {
      max_concurrent_flow_theta(t, d);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const Topology shifted("shifted_ring(2)", 6, {{0, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 0}, {5, 1}});
  DemandMatrix unreachable(6);
  unreachable.set(0, 4, 1.0);
  unreachable.set(1, 4, 1.0);
  EXPECT_EQ(theta_error(shifted, unreachable), max_concurrent_flow_error_of(shifted, unreachable));
  EXPECT_NE(theta_error(shifted, unreachable).find("no route from node 1 to node 4"), std::string::npos);
  EXPECT_EQ(theta_error(shifted, DemandMatrix(6)), max_concurrent_flow_error_of(shifted, DemandMatrix(6)));
  EXPECT_EQ(theta_error(shifted, DemandMatrix::alltoall(5)),
            max_concurrent_flow_error_of(shifted, DemandMatrix::alltoall(5)));
}

TEST(MaxConcurrentFlow, RejectsDemandWithoutRoute) {
  const Topology line("line", 3, {{0, 1}, {1, 2}});
  DemandMatrix d(3);
  d.set(0, 2, 1.0);
  EXPECT_NEAR(max_concurrent_flow(line, d).theta, 1.0, kExact);
  d.set(2, 0, 1.0);
  const std::string e = max_concurrent_flow_error_of(line, d);
  EXPECT_NE(e.find("no route from node 2 to node 0 for demand"), std::string::npos) << e;
  EXPECT_NE(e.find("'line'"), std::string::npos) << e;
  EXPECT_NE(max_concurrent_flow_error_of(Topology("none", 3, {}), d).find("no route from node 0 to node 2"),
            std::string::npos);
}

TEST(MaxConcurrentFlow, Circulant64Degree4Alltoall) {
  // The all-to-all paper's scale: 64 GPUs, 4 directed circuits each.
  const int n = 64;
  const Topology t = circulant("circulant-64-1-2-4-8", n, {1, 2, 4, 8});
  const DemandMatrix d = DemandMatrix::alltoall(n);
  long total_shortest_hops = 0;
  for (int s = 0; s < n; ++s) {
    for (int h : hops_from(t, node(s))) total_shortest_hops += h;
  }
  const auto start = std::chrono::steady_clock::now();
  const ConcurrentFlow flow = max_concurrent_flow(t, d);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ timing   ] 64-GPU degree-4 circulant all-to-all: theta = " << flow.theta << " (shortest-hop bound "
            << 256.0 / static_cast<double>(total_shortest_hops) << "), solve + decomposition " << seconds << " s\n";
  // Every unit of demand needs at least its shortest hop count of capacity.
  EXPECT_LE(flow.theta, 256.0 / static_cast<double>(total_shortest_hops) + kExact);
  EXPECT_GT(flow.theta, 0.0);
  // Tighter: a circuit u -> u+o advances a unit of flow o places clockwise,
  // and s -> s+d needs d places. Capacity advances 64 * (1+2+4+8) per unit
  // time, demand needs theta * 64 * (1+...+63), so theta <= 15/2016; the LP
  // attains it (all circuits full, no flow wraps around).
  EXPECT_NEAR(flow.theta, 15.0 / 2016.0, kExact);
  expect_valid_flow(t, d, flow);
}

TEST(MaxConcurrentFlow, Circulant128Degree4Alltoall) {
  // The argument above at 128 GPUs: theta = 15 / (1 + ... + 127) = 15/8128.
  // (The edge LP this replaced stopped on numerical trouble here.)
  const Topology t = circulant("circulant-128-1-2-4-8", 128, {1, 2, 4, 8});
  const DemandMatrix d = DemandMatrix::alltoall(128);
  const ConcurrentFlow flow = max_concurrent_flow(t, d);
  EXPECT_NEAR(flow.theta, 15.0 / 8128.0, kExact);
  expect_valid_flow(t, d, flow);
}

TEST(MaxConcurrentFlow, TorusAndHypercubeAlltoall) {
  // Bisection: a k x k torus (k even) cut in half across one dimension has
  // 2k circuits each way and (k^2/2)^2 pairs to carry: theta <= 8/k^3.
  // A d-cube has n d circuits and a source needs d n/2 hops of capacity in
  // all: theta <= 2/n, attained.
  for (int k : {4, 6}) {
    const Topology t = max_concurrent_flow_torus(k, k);
    const DemandMatrix d = DemandMatrix::alltoall(k * k);
    const ConcurrentFlow flow = max_concurrent_flow(t, d);
    EXPECT_NEAR(flow.theta, 8.0 / (k * k * k), kExact) << "k=" << k;
    expect_valid_flow(t, d, flow);
  }
  const Topology cube = max_concurrent_flow_hypercube(5);
  const DemandMatrix d = DemandMatrix::alltoall(32);
  const ConcurrentFlow flow = max_concurrent_flow(cube, d);
  EXPECT_NEAR(flow.theta, 2.0 / 32.0, kExact);
  expect_valid_flow(cube, d, flow);
}

TEST(MaxConcurrentFlow, GridAlltoallMeetsTheBisectionBound) {
  // No translation keeps a mesh, so this runs the column generation. The
  // middle cut of an a x a mesh (a even) has a circuits each way and
  // (a^2/2)^2 pairs to carry: theta <= 4/a^3, which the LP attains.
  for (int a : {4, 6}) {
    const Topology g = max_concurrent_flow_grid(a, a);
    const DemandMatrix d = DemandMatrix::alltoall(a * a);
    EXPECT_FALSE(TranslationSymmetry::find(g, d));
    const ConcurrentFlow flow = max_concurrent_flow(g, d);
    EXPECT_NEAR(flow.theta, 4.0 / (a * a * a), kExact) << "a=" << a;
    expect_valid_flow(g, d, flow);
  }
}

TEST(MaxConcurrentFlow, RelabellingHidesTheSymmetryButNotTheOptimum) {
  // A circulant with its nodes shuffled has no translations in its ids, so
  // the column generation must reach what the symmetric LP reaches:
  // theta = (1+2+4) / (1+...+15) = 7/120, as for the 64-GPU circulant.
  const int n = 16;
  const Topology t = circulant("circ", n, {1, 2, 4});
  std::vector<int> perm(n);
  for (int u = 0; u < n; ++u) perm[u] = u;
  uint32_t state = 12345;
  for (int i = n - 1; i > 0; --i) {
    state = state * 1103515245u + 12345u;
    std::swap(perm[i], perm[(state >> 16) % static_cast<uint32_t>(i + 1)]);
  }
  const Topology shuffled = relabelled(t, perm);
  const DemandMatrix d = DemandMatrix::alltoall(n);
  ASSERT_TRUE(TranslationSymmetry::find(t, d));
  ASSERT_FALSE(TranslationSymmetry::find(shuffled, d));
  const ConcurrentFlow direct = max_concurrent_flow(t, d);
  const ConcurrentFlow hidden = max_concurrent_flow(shuffled, d);
  EXPECT_NEAR(direct.theta, 7.0 / 120.0, kExact);
  EXPECT_NEAR(hidden.theta, 7.0 / 120.0, kExact);
  expect_valid_flow(t, d, direct);
  expect_valid_flow(shuffled, d, hidden);
}

TEST(MaxConcurrentFlow, GeneralizedKautz64Alltoall) {
  // Not vertex-transitive: the column generation at the paper's scale.
  // 15/691 is the optimum the edge LP (solved whole by CLP) found.
  const Topology t = generalized_kautz(64, 4);
  const DemandMatrix d = DemandMatrix::alltoall(64);
  ASSERT_FALSE(TranslationSymmetry::find(t, d));
  const ConcurrentFlow flow = max_concurrent_flow(t, d);
  EXPECT_NEAR(flow.theta, 15.0 / 691.0, kExact);
  expect_valid_flow(t, d, flow);
}

TEST(MaxConcurrentFlow, ColumnGenerationGivesSameBytes) {
  const Topology t = generalized_kautz(24, 3);
  const DemandMatrix d = DemandMatrix::alltoall(24);
  ASSERT_FALSE(TranslationSymmetry::find(t, d));
  const ConcurrentFlow a = max_concurrent_flow(t, d);
  expect_same_bytes(a, max_concurrent_flow(t, d));
  expect_valid_flow(t, d, a);
}

TEST(TranslationSymmetry, FindsTheCyclicGroupOfACirculant) {
  const Topology t = circulant("circ", 12, {1, 3, 5});
  const std::optional<TranslationSymmetry> group = TranslationSymmetry::find(t, DemandMatrix::alltoall(12));
  ASSERT_TRUE(group);
  EXPECT_EQ(group->radices(), std::vector<int>{12});
  EXPECT_EQ(group->translate(3, 5), 8u);
  EXPECT_EQ(group->translate(9, 5), 2u);
  EXPECT_EQ(group->subtract(2, 5), 9u);
  for (uint32_t e = 0; e < t.edges().size(); ++e) {
    const Edge& from = t.edges()[e];
    EXPECT_EQ(t.edges()[group->translate_edge(e, 7)],
              (Edge{group->translate(from.first, 7), group->translate(from.second, 7)}));
  }
}

TEST(TranslationSymmetry, FindsTorusAndHypercubeGroupsDigitByDigit) {
  // 4 x 3 torus: not cyclic in row-major ids, but rows (mod 4) x columns
  // (mod 3) are.
  const std::optional<TranslationSymmetry> rows_columns =
      TranslationSymmetry::find(max_concurrent_flow_torus(4, 3), DemandMatrix::alltoall(12));
  ASSERT_TRUE(rows_columns);
  EXPECT_EQ(rows_columns->radices(), (std::vector<int>{4, 3}));
  EXPECT_EQ(rows_columns->translate(5, 4), 6u);  // (1,2) + (1,1) = (2,0)
  EXPECT_EQ(rows_columns->subtract(6, 4), 5u);
  const std::optional<TranslationSymmetry> cube =
      TranslationSymmetry::find(max_concurrent_flow_hypercube(3), DemandMatrix::alltoall(8));
  ASSERT_TRUE(cube);
  EXPECT_EQ(cube->radices(), (std::vector<int>{2, 2, 2}));
  for (Node u = 0; u < 8; ++u) {
    for (Node s = 0; s < 8; ++s) EXPECT_EQ(cube->translate(u, s), u ^ s);
  }
}

TEST(TranslationSymmetry, NoneWhenCircuitsOrDemandBreakIt) {
  EXPECT_FALSE(TranslationSymmetry::find(max_concurrent_flow_grid(3, 3), DemandMatrix::alltoall(9)));
  const Topology t = circulant("circ", 12, {1, 3, 5});
  DemandMatrix skewed = DemandMatrix::alltoall(12);
  skewed.set(0, 1, 2.0);
  EXPECT_FALSE(TranslationSymmetry::find(t, skewed));
  DemandMatrix diagonal = DemandMatrix::alltoall(12);
  diagonal.set(3, 3, 5.0);  // not demand
  EXPECT_TRUE(TranslationSymmetry::find(t, diagonal));
  EXPECT_FALSE(TranslationSymmetry::find(t, DemandMatrix::alltoall(11)));
}

TEST(TranslationSymmetry, KeepsTheRankOfParallelCircuits) {
  // Edges, sorted: (0,1) (0,1) (1,2) (1,2) (2,3) (2,3) (3,0) (3,0).
  const Topology ring2 = circulant("ring-x2", 4, {1, 1});
  const std::optional<TranslationSymmetry> group = TranslationSymmetry::find(ring2, DemandMatrix::alltoall(4));
  ASSERT_TRUE(group);
  EXPECT_EQ(group->translate_edge(0, 1), 2u);
  EXPECT_EQ(group->translate_edge(1, 1), 3u);
  EXPECT_EQ(group->translate_edge(7, 1), 1u);
  EXPECT_EQ(group->translate_edge(4, 3), 2u);
}

// theta from the plain arc-flow LP (one commodity per source, a capacity
// row per circuit), independent of max_concurrent_flow's choice of solver.
double arc_flow_theta(const Topology& t, const DemandMatrix& d) {
  std::vector<uint32_t> own(t.edges().size());
  for (uint32_t e = 0; e < own.size(); ++e) own[e] = e;
  SourceFlowLP lp(t, own, static_cast<uint32_t>(own.size()));
  for (int s = 0; s < t.gpus(); ++s) {
    std::vector<double> row(static_cast<size_t>(t.gpus()), 0.0);
    for (int u = 0; u < t.gpus(); ++u) row[u] = s == u ? 0.0 : d.at(node(s), node(u));
    lp.add_commodity(node(s), row);
  }
  std::string failure;
  const std::optional<SourceFlowLP::Result> result = lp.solve(false, failure);
  EXPECT_TRUE(result) << failure;
  return result ? result->lambda : 0.0;
}

TEST(MaxConcurrentFlow, UnevenDemandOnACirculantMatchesTheArcFlowLP) {
  // Rotations no longer keep the demand, and the circulant's many equally
  // short paths make the path master degenerate: whichever solver answers
  // must agree with the arc-flow LP.
  const Topology t = circulant("circ", 16, {1, 2, 4});
  DemandMatrix d = DemandMatrix::alltoall(16);
  d.set(0, 1, 2.0);
  d.set(5, 12, 3.0);
  ASSERT_FALSE(TranslationSymmetry::find(t, d));
  const ConcurrentFlow flow = max_concurrent_flow(t, d);
  EXPECT_NEAR(flow.theta, arc_flow_theta(t, d), kExact);
  expect_valid_flow(t, d, flow);

  DemandMatrix half(16);
  for (int s = 0; s < 8; ++s) {
    for (int u = 0; u < 16; ++u) {
      if (s != u) half.set(node(s), node(u), 1.0);
    }
  }
  const ConcurrentFlow half_flow = max_concurrent_flow(t, half);
  EXPECT_NEAR(half_flow.theta, arc_flow_theta(t, half), kExact);
  expect_valid_flow(t, half, half_flow);
}

TEST(SourceFlowLP, PlainLPMeetsTheRingClosedForm) {
  const int n = 8;
  const Topology ring = unidirectional_ring(n);
  EXPECT_NEAR(arc_flow_theta(ring, DemandMatrix::alltoall(n)), 2.0 / (n * (n - 1)), kExact);
}

TEST(SourceFlowLP, OneCommodityOverOrbitsGivesTheSymmetricOptimum) {
  // Circulant {1,3,5} on 12 GPUs: source 0's flow with one capacity row per
  // generator (the orbits of the rotations) has the full LP's optimum.
  const Topology t = circulant("circ", 12, {1, 3, 5});
  std::vector<uint32_t> orbit(t.edges().size());
  for (uint32_t e = 0; e < orbit.size(); ++e) {
    const Edge& edge = t.edges()[e];
    const int step = (static_cast<int>(edge.second) - static_cast<int>(edge.first) + 12) % 12;
    orbit[e] = step == 1 ? 0 : step == 3 ? 1 : 2;
  }
  SourceFlowLP lp(t, orbit, 3);
  std::vector<double> row(12, 1.0);
  lp.add_commodity(0, row);
  std::string failure;
  const std::optional<SourceFlowLP::Result> result = lp.solve(true, failure);
  ASSERT_TRUE(result) << failure;
  const DemandMatrix d = DemandMatrix::alltoall(12);
  EXPECT_NEAR(result->lambda, arc_flow_theta(t, d), kExact);
  EXPECT_NEAR(result->lambda, max_concurrent_flow(t, d).theta, kExact);
  ASSERT_EQ(result->paths.size(), 1u);
  for (Node u = 1; u < 12; ++u) {
    double total = 0.0;
    for (const PathShare& p : result->paths[0][u]) {
      total += p.share;
      ASSERT_FALSE(p.links.empty());
      EXPECT_EQ(t.edges()[p.links.front()].first, 0u);
      EXPECT_EQ(t.edges()[p.links.back()].second, u);
    }
    EXPECT_NEAR(total, 1.0, 1e-9) << "target " << u;
  }
  // Every capacity dual is non-negative and they price lambda: by LP
  // duality, lambda = sum of the duals (each group's capacity is 1).
  double dual_sum = 0.0;
  for (double y : result->group_dual) {
    EXPECT_GE(y, 0.0);
    dual_sum += y;
  }
  EXPECT_NEAR(dual_sum, result->lambda, kExact);
}

}  // namespace
}  // namespace photonsim
