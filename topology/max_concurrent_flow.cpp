#include "topology/max_concurrent_flow.h"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <limits>
#include <queue>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>

#include <ClpSimplex.hpp>

#include "core/error.h"

namespace photonsim {

// Path-based column generation. The restricted master LP holds one column
// per known path:
//
//   maximize  c * lambda
//   s.t.      sum_{p in P(s,t)} x_p - d(s,t) * lambda = 0   for every pair with demand
//             sum_{p through e} x_p <= 1                     for every circuit e
//             x, lambda >= 0
//
// with d = D / max(D) and c = sum of d, which makes the pair duals O(1) so
// CLP's absolute dual tolerance is a relative one. With capacity duals
// y_e >= 0 and pair duals z(s,t) (CLP reports d objective / d rhs, so z is
// minus the pair row's dual), a path p for (s,t) improves the master exactly
// when its length sum_{e in p} y_e is below z(s,t): one Dijkstra per source
// over the lengths y prices every pair at once. When no path prices out the
// master optimum is the optimum over all paths. Weak duality gives the check:
// for any lengths y >= 0, theta <= sum_e y_e / sum_{s,t} d(s,t) dist_y(s,t),
// so the final duals certify the answer.
//
// The start is one fewest-hop path per pair with the basis that routes all
// of them scaled to the busiest circuit, so primal simplex starts feasible;
// every round adds the shortest path of each pair that prices out (at lower
// bound, keeping the basis) and re-optimises from the previous basis.

namespace {

// Pricing: a path enters when its reduced cost, relative to the pair duals'
// scale (1 on average by the choice of c), exceeds this. CLP's own dual
// tolerance is set just below it.
constexpr double kPriceTolerance = 1e-10;
constexpr double kClpDualTolerance = 1e-11;
constexpr double kClpPrimalTolerance = 1e-11;
// The final duals must bound theta within this fraction of it.
constexpr double kGapTolerance = 1e-9;
// Path flows at or below this fraction of their pair's demand are solver
// noise, not flow.
constexpr double kFlowEpsilon = 1e-12;
// Rounds of column generation before giving up (each adds at least one
// path not in the master; in practice a few dozen suffice).
constexpr int kMaxRounds = 100000;

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string node_pair(Node s, Node t) {
  return "D(" + std::to_string(s) + "," + std::to_string(t) + ")";
}

std::string clp_status_name(int status) {
  switch (status) {
    case 1: return "primal infeasible";
    case 2: return "dual infeasible (unbounded)";
    case 3: return "stopped on iteration or time limit";
    case 4: return "stopped on numerical errors";
    case 5: return "stopped by event handler";
    default: return "unknown status " + std::to_string(status);
  }
}

// Out-edges of each node as index ranges into the sorted edge list.
struct Adjacency {
  std::vector<uint32_t> out_begin;  // size n + 1

  explicit Adjacency(const Topology& topology)
      : out_begin(static_cast<size_t>(topology.gpus()) + 1, 0) {
    for (const Edge& e : topology.edges()) ++out_begin[e.first + 1];
    for (size_t u = 1; u < out_begin.size(); ++u) out_begin[u] += out_begin[u - 1];
  }
};

// Shortest-path tree from one source under lengths >= 0, ties broken by hop
// count, then by lower node (queue order) and lower edge index (first
// strict improvement wins). Label setting yields a tree, so every tree path
// is simple even where lengths are zero.
class ShortestPathTree {
 public:
  ShortestPathTree(const Topology& topology, const Adjacency& adj)
      : topology_(topology),
        adj_(adj),
        dist_(static_cast<size_t>(topology.gpus())),
        hops_(static_cast<size_t>(topology.gpus())),
        via_(static_cast<size_t>(topology.gpus())),
        done_(static_cast<size_t>(topology.gpus())) {}

  void grow(Node s, const std::vector<double>& length) {
    std::fill(dist_.begin(), dist_.end(), std::numeric_limits<double>::infinity());
    std::fill(hops_.begin(), hops_.end(), std::numeric_limits<uint32_t>::max());
    std::fill(via_.begin(), via_.end(), kNone);
    std::fill(done_.begin(), done_.end(), false);
    using Label = std::tuple<double, uint32_t, Node>;
    std::priority_queue<Label, std::vector<Label>, std::greater<Label>> queue;
    dist_[s] = 0.0;
    hops_[s] = 0;
    queue.push({0.0, 0, s});
    const std::vector<Edge>& edges = topology_.edges();
    while (!queue.empty()) {
      const Node u = std::get<2>(queue.top());
      queue.pop();
      if (done_[u]) continue;
      done_[u] = true;
      for (uint32_t e = adj_.out_begin[u]; e < adj_.out_begin[u + 1]; ++e) {
        const Node v = edges[e].second;
        if (done_[v]) continue;
        const double d = dist_[u] + length[e];
        const uint32_t h = hops_[u] + 1;
        if (d < dist_[v] || (d == dist_[v] && h < hops_[v])) {
          dist_[v] = d;
          hops_[v] = h;
          via_[v] = e;
          queue.push({d, h, v});
        }
      }
    }
  }

  bool reached(Node t) const { return done_[t]; }
  double dist(Node t) const { return dist_[t]; }

  // Edge indices of the tree path to t, in order from the source.
  std::vector<uint32_t> links_to(Node t) const {
    std::vector<uint32_t> links;
    for (Node v = t; via_[v] != kNone; v = topology_.edges()[via_[v]].first) links.push_back(via_[v]);
    std::reverse(links.begin(), links.end());
    return links;
  }

 private:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  const Topology& topology_;
  const Adjacency& adj_;
  std::vector<double> dist_;
  std::vector<uint32_t> hops_;
  std::vector<uint32_t> via_;
  std::vector<bool> done_;
};

struct Pair {
  Node s = 0;
  Node t = 0;
  double demand = 0.0;  // D(s,t) / max D
};

struct PathColumn {
  uint32_t pair = 0;
  std::vector<uint32_t> links;
};

}  // namespace

ConcurrentFlow max_concurrent_flow(const Topology& topology, const DemandMatrix& demand) {
  const int n = topology.gpus();
  if (demand.gpus() != n) {
    throw Error("max concurrent flow: demand matrix has " + std::to_string(demand.gpus()) +
                " GPUs but topology '" + topology.name() + "' has " + std::to_string(n));
  }
  const std::vector<Edge>& edges = topology.edges();
  const size_t edge_count = edges.size();
  const Adjacency adj(topology);
  ShortestPathTree tree(topology, adj);

  // Pairs with demand, by source then target. Demands enter the LP divided
  // by the largest one so coefficients stay near 1 whatever unit (bytes or
  // blocks) the caller uses. DemandMatrix already rejects negative and
  // non-finite entries.
  const double scale = demand.max_off_diagonal();
  if (!(scale > 0)) {
    throw Error("max concurrent flow: demand matrix is all zero off the diagonal, so theta is "
                "unbounded");
  }
  std::vector<Pair> pairs;
  std::vector<size_t> source_begin(static_cast<size_t>(n) + 1, 0);  // pairs of s: [begin[s], begin[s+1])
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    source_begin[s] = pairs.size();
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      if (s != t && demand.at(s, t) > 0) pairs.push_back({s, t, demand.at(s, t) / scale});
    }
  }
  source_begin[static_cast<size_t>(n)] = pairs.size();
  const size_t pair_count = pairs.size();
  if (pair_count + edge_count > static_cast<size_t>(std::numeric_limits<int>::max() / 2)) {
    throw Error("max concurrent flow: topology '" + topology.name() +
                "' with this demand is too large for the LP (" + std::to_string(pair_count) +
                " pairs)");
  }

  // Start: one fewest-hop path per pair (zero lengths make Dijkstra a BFS).
  // Circuit lengths for pricing: the capacity duals, zero to start.
  std::vector<double> length(edge_count, 0.0);
  std::vector<PathColumn> columns;
  columns.reserve(pair_count);
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    if (source_begin[s] == source_begin[s + 1]) continue;
    tree.grow(s, length);
    for (size_t k = source_begin[s]; k < source_begin[s + 1]; ++k) {
      const Node t = pairs[k].t;
      if (!tree.reached(t)) {
        throw Error("no route from node " + std::to_string(s) + " to node " + std::to_string(t) +
                    " for demand " + node_pair(s, t) + " = " + number(demand.at(s, t)) +
                    " on topology '" + topology.name() + "'");
      }
      columns.push_back({static_cast<uint32_t>(k), tree.links_to(t)});
    }
  }
  std::vector<double> load(edge_count, 0.0);
  for (const PathColumn& c : columns) {
    for (uint32_t e : c.links) load[e] += pairs[c.pair].demand;
  }
  const size_t busiest =
      static_cast<size_t>(std::max_element(load.begin(), load.end()) - load.begin());

  // Master LP. Column 0 is lambda, column 1 + i is columns[i]; rows are the
  // pairs, then the circuits.
  const int capacity_row0 = static_cast<int>(pair_count);
  const int row_count = capacity_row0 + static_cast<int>(edge_count);
  double demand_sum = 0.0;
  for (const Pair& p : pairs) demand_sum += p.demand;

  std::vector<CoinBigIndex> starts;
  std::vector<int> indices;
  std::vector<double> values;
  auto append_path = [&](const PathColumn& c) {
    starts.push_back(static_cast<CoinBigIndex>(indices.size()));
    indices.push_back(static_cast<int>(c.pair));
    values.push_back(1.0);
    std::vector<uint32_t> sorted = c.links;
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t e : sorted) {
      indices.push_back(capacity_row0 + static_cast<int>(e));
      values.push_back(1.0);
    }
  };

  ClpSimplex model;
  model.setLogLevel(0);
  {
    starts.push_back(0);
    for (size_t k = 0; k < pair_count; ++k) {
      indices.push_back(static_cast<int>(k));
      values.push_back(-pairs[k].demand);
    }
    for (const PathColumn& c : columns) append_path(c);
    starts.push_back(static_cast<CoinBigIndex>(indices.size()));
    const size_t col_count = columns.size() + 1;
    std::vector<double> col_lower(col_count, 0.0);
    std::vector<double> col_upper(col_count, COIN_DBL_MAX);
    std::vector<double> objective(col_count, 0.0);
    objective[0] = demand_sum;
    std::vector<double> row_lower(static_cast<size_t>(row_count), 0.0);
    std::vector<double> row_upper(static_cast<size_t>(row_count), 0.0);
    for (size_t e = 0; e < edge_count; ++e) {
      row_lower[pair_count + e] = -COIN_DBL_MAX;
      row_upper[pair_count + e] = 1.0;
    }
    model.loadProblem(static_cast<int>(col_count), row_count, starts.data(), indices.data(),
                      values.data(), col_lower.data(), col_upper.data(), objective.data(),
                      row_lower.data(), row_upper.data());
  }
  model.setOptimizationDirection(-1.0);  // maximize lambda
  model.setDualTolerance(kClpDualTolerance);
  model.setPrimalTolerance(kClpPrimalTolerance);
  // Starting basis: lambda and every path basic, the busiest circuit tight,
  // every other circuit's slack basic. It is the vertex lambda = 1 / load.
  model.setColumnStatus(0, ClpSimplex::basic);
  for (size_t i = 0; i < columns.size(); ++i) {
    model.setColumnStatus(static_cast<int>(i + 1), ClpSimplex::basic);
  }
  for (size_t k = 0; k < pair_count; ++k) {
    model.setRowStatus(static_cast<int>(k), ClpSimplex::atLowerBound);
  }
  for (size_t e = 0; e < edge_count; ++e) {
    model.setRowStatus(capacity_row0 + static_cast<int>(e),
                       e == busiest ? ClpSimplex::atUpperBound : ClpSimplex::basic);
  }

  // Paths already in the master, per pair (column indices into `columns`).
  std::vector<std::vector<uint32_t>> pair_columns(pair_count);
  for (size_t i = 0; i < columns.size(); ++i) {
    pair_columns[columns[i].pair].push_back(static_cast<uint32_t>(i));
  }

  double lambda = 0.0;
  double primal_sec = 0.0;
  double bound = 0.0;
  for (int round = 0;; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    model.primal();
    primal_sec += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (model.status() != 0) {
      throw Error("max concurrent flow: CLP did not reach an optimum on topology '" +
                  topology.name() + "' (" + clp_status_name(model.status()) + ")");
    }
    lambda = model.primalColumnSolution()[0];
    const double* row_dual = model.dualRowSolution();
    double length_sum = 0.0;
    for (size_t e = 0; e < edge_count; ++e) {
      length[e] = std::max(0.0, row_dual[pair_count + e]);
      length_sum += length[e];
    }

    // Price every pair; the weighted distance sum also bounds theta.
    std::vector<PathColumn> entering;
    double weighted_dist = 0.0;
    for (Node s = 0; s < static_cast<Node>(n); ++s) {
      if (source_begin[s] == source_begin[s + 1]) continue;
      tree.grow(s, length);
      for (size_t k = source_begin[s]; k < source_begin[s + 1]; ++k) {
        const double dist = tree.dist(pairs[k].t);
        weighted_dist += pairs[k].demand * dist;
        const double threshold = -row_dual[k];
        if (!(dist < threshold - kPriceTolerance)) continue;
        std::vector<uint32_t> links = tree.links_to(pairs[k].t);
        bool known = false;
        for (uint32_t i : pair_columns[k]) known = known || columns[i].links == links;
        if (!known) entering.push_back({static_cast<uint32_t>(k), std::move(links)});
      }
    }
    // weighted_dist >= 0; when it is 0 the lengths certify nothing.
    bound = weighted_dist > 0 ? length_sum / weighted_dist : std::numeric_limits<double>::infinity();
    if (getenv("CGDBG")) fprintf(stderr, "primal %.3f round %d iters %d lambda %.17g bound %.17g entering %zu cols %zu\n", primal_sec, round, model.numberIterations(), lambda, bound, entering.size(), columns.size());
    if (entering.empty()) break;
    if (round + 1 >= kMaxRounds) {
      throw Error("max concurrent flow: column generation did not converge on topology '" +
                  topology.name() + "' after " + std::to_string(kMaxRounds) + " rounds");
    }

    starts.clear();
    indices.clear();
    values.clear();
    for (const PathColumn& c : entering) append_path(c);
    starts.push_back(static_cast<CoinBigIndex>(indices.size()));
    const size_t added = entering.size();
    const std::vector<double> col_lower(added, 0.0);
    const std::vector<double> col_upper(added, COIN_DBL_MAX);
    const std::vector<double> objective(added, 0.0);
    const int first = model.numberColumns();
    model.addColumns(static_cast<int>(added), col_lower.data(), col_upper.data(),
                     objective.data(), starts.data(), indices.data(), values.data());
    for (size_t i = 0; i < added; ++i) {
      model.setColumnStatus(first + static_cast<int>(i), ClpSimplex::atLowerBound);
      pair_columns[entering[i].pair].push_back(static_cast<uint32_t>(columns.size()));
      columns.push_back(std::move(entering[i]));
    }
  }
  if (!(bound <= lambda * (1.0 + kGapTolerance))) {
    throw Error("max concurrent flow: CLP did not reach an optimum on topology '" +
                topology.name() + "' (duals bound theta by " + number(bound / scale) +
                ", paths reach " + number(lambda / scale) + ")");
  }

  // Path flows: drop noise, make every pair carry exactly theta * d (the
  // pair rows hold to rounding, so this moves flows by rounding only), and
  // scale down if a circuit ends over capacity by the solver's tolerance.
  const double* x = model.primalColumnSolution() + 1;
  std::vector<double> amount(columns.size(), 0.0);
  std::vector<double> carried(pair_count, 0.0);
  for (size_t i = 0; i < columns.size(); ++i) {
    const Pair& p = pairs[columns[i].pair];
    if (x[i] > kFlowEpsilon * p.demand) {
      amount[i] = x[i];
      carried[columns[i].pair] += x[i];
    }
  }
  double theta = lambda;
  for (size_t k = 0; k < pair_count; ++k) theta = std::min(theta, carried[k] / pairs[k].demand);
  std::fill(load.begin(), load.end(), 0.0);
  for (size_t i = 0; i < columns.size(); ++i) {
    if (amount[i] == 0.0) continue;
    const size_t k = columns[i].pair;
    amount[i] *= theta * pairs[k].demand / carried[k];
    for (uint32_t e : columns[i].links) load[e] += amount[i];
  }
  const double overload = std::max(1.0, *std::max_element(load.begin(), load.end()));
  theta /= overload;

  ConcurrentFlow result;
  result.theta = theta / scale;
  result.edge_flow.assign(static_cast<size_t>(n), std::vector<double>(edge_count, 0.0));
  result.paths.assign(static_cast<size_t>(n),
                      std::vector<std::vector<FlowPath>>(static_cast<size_t>(n)));
  for (size_t i = 0; i < columns.size(); ++i) {
    if (amount[i] == 0.0) continue;
    const Pair& p = pairs[columns[i].pair];
    FlowPath path;
    path.amount = amount[i] / overload;
    path.links = columns[i].links;
    path.nodes.push_back(p.s);
    for (uint32_t e : path.links) {
      path.nodes.push_back(edges[e].second);
      result.edge_flow[p.s][e] += path.amount;
    }
    result.paths[p.s][p.t].push_back(std::move(path));
  }
  return result;
}

}  // namespace photonsim
