#include "topology/max_concurrent_flow.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "topology/demand_matrix.h"
#include "topology/topology.h"

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
void expect_valid_flow(const Topology& topology, const DemandMatrix& demand,
                       const ConcurrentFlow& flow) {
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

std::string error_of(const Topology& t, const DemandMatrix& d) {
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
      const ConcurrentFlow flow =
          max_concurrent_flow(g(schedule[step - 1]), recursive_doubling_step(n, step));
      worst = std::max(worst, 1.0 / flow.theta);
    }
    return worst;
  };
  EXPECT_NEAR(worst_congestion({1, 1, 1}), 4.0, kExact);
  EXPECT_NEAR(worst_congestion({1, 2, 2}), 2.0, kExact);
  EXPECT_NEAR(worst_congestion({1, 2, 3}), 1.0, kExact);
  // Per step on the static ring: 1x, 2x, 4x.
  for (int step = 1; step <= 3; ++step) {
    EXPECT_NEAR(max_concurrent_flow(g(1), recursive_doubling_step(n, step)).theta,
                1.0 / (1 << (step - 1)), kExact);
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
    EXPECT_NEAR(doubled_ring.theta, 2.0 * max_concurrent_flow(unidirectional_ring(n), d).theta,
                kExact);
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
  const std::string e = error_of(unidirectional_ring(4), DemandMatrix::alltoall(5));
  EXPECT_NE(e.find("5 GPUs"), std::string::npos) << e;
  EXPECT_NE(e.find("has 4"), std::string::npos) << e;
}

TEST(MaxConcurrentFlow, RejectsAllZeroDemand) {
  DemandMatrix d(4);
  EXPECT_NE(error_of(unidirectional_ring(4), d).find("all zero"), std::string::npos);
  d.set(2, 2, 5.0);  // the diagonal is not demand
  EXPECT_NE(error_of(unidirectional_ring(4), d).find("unbounded"), std::string::npos);
}

TEST(MaxConcurrentFlow, RejectsDemandWithoutRoute) {
  const Topology line("line", 3, {{0, 1}, {1, 2}});
  DemandMatrix d(3);
  d.set(0, 2, 1.0);
  EXPECT_NEAR(max_concurrent_flow(line, d).theta, 1.0, kExact);
  d.set(2, 0, 1.0);
  const std::string e = error_of(line, d);
  EXPECT_NE(e.find("no route from node 2 to node 0 for demand"), std::string::npos) << e;
  EXPECT_NE(e.find("'line'"), std::string::npos) << e;
  EXPECT_NE(error_of(Topology("none", 3, {}), d).find("no route from node 0 to node 2"),
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
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ timing   ] 64-GPU degree-4 circulant all-to-all: theta = " << flow.theta
            << " (shortest-hop bound " << 256.0 / static_cast<double>(total_shortest_hops)
            << "), solve + decomposition " << seconds << " s\n";
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

}  // namespace
}  // namespace photonsim
