#include "topology/max_concurrent_flow.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <sstream>
#include <string>
#include <utility>

#include <ClpSimplex.hpp>

#include "core/error.h"

namespace photonsim {

namespace {

// LP values at or below this are solver noise, not flow.
constexpr double kFlowEpsilon = 1e-12;
// A pair counts as covered once its paths carry all but this fraction of
// theta * D(s,t); the simplex solution is exact to far better than that.
constexpr double kCoverTolerance = 1e-9;
// Shortfall beyond this fraction means the solver's flow is not a flow.
constexpr double kShortfallLimit = 1e-6;

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
    const std::vector<Edge>& edges = topology.edges();
    for (const Edge& e : edges) ++out_begin[e.first + 1];
    for (size_t u = 1; u < out_begin.size(); ++u) out_begin[u] += out_begin[u - 1];
  }
};

std::vector<bool> reachable_from(const Topology& topology, const Adjacency& adj, Node s) {
  std::vector<bool> seen(static_cast<size_t>(topology.gpus()), false);
  std::vector<Node> stack{s};
  seen[s] = true;
  while (!stack.empty()) {
    const Node u = stack.back();
    stack.pop_back();
    for (uint32_t e = adj.out_begin[u]; e < adj.out_begin[u + 1]; ++e) {
      const Node v = topology.edges()[e].second;
      if (!seen[v]) {
        seen[v] = true;
        stack.push_back(v);
      }
    }
  }
  return seen;
}

// Widest path s -> t through edges with residual flow, or empty links when t
// is cut off. Label-setting (Dijkstra on bottleneck width) yields a tree, so
// the path is simple; ties go to the lower node and then lower edge index.
FlowPath widest_path(const Topology& topology, const Adjacency& adj,
                     const std::vector<double>& residual, Node s, Node t) {
  const size_t n = static_cast<size_t>(topology.gpus());
  std::vector<double> width(n, 0.0);
  std::vector<int64_t> via(n, -1);
  std::vector<bool> done(n, false);
  using Label = std::pair<double, Node>;
  auto lower_priority = [](const Label& a, const Label& b) {
    if (a.first != b.first) return a.first < b.first;
    return a.second > b.second;
  };
  std::priority_queue<Label, std::vector<Label>, decltype(lower_priority)> queue(lower_priority);
  width[s] = std::numeric_limits<double>::infinity();
  queue.push({width[s], s});
  while (!queue.empty()) {
    const Node u = queue.top().second;
    queue.pop();
    if (done[u]) continue;
    done[u] = true;
    if (u == t) break;
    for (uint32_t e = adj.out_begin[u]; e < adj.out_begin[u + 1]; ++e) {
      const Node v = topology.edges()[e].second;
      const double w = std::min(width[u], residual[e]);
      if (!done[v] && w > width[v]) {
        width[v] = w;
        via[v] = e;
        queue.push({w, v});
      }
    }
  }
  FlowPath path;
  if (!done[t] || t == s) return path;
  path.amount = width[t];
  for (Node v = t; v != s; v = topology.edges()[static_cast<size_t>(via[v])].first) {
    path.nodes.push_back(v);
    path.links.push_back(static_cast<uint32_t>(via[v]));
  }
  path.nodes.push_back(s);
  std::reverse(path.nodes.begin(), path.nodes.end());
  std::reverse(path.links.begin(), path.links.end());
  return path;
}

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

  // Collect the sources that send anything; each must reach its targets.
  std::vector<Node> sources;
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    bool sends = false;
    // DemandMatrix already rejects negative and non-finite entries.
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      if (s != t && demand.at(s, t) > 0) sends = true;
    }
    if (!sends) continue;
    const std::vector<bool> seen = reachable_from(topology, adj, s);
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      if (s != t && demand.at(s, t) > 0 && !seen[t]) {
        throw Error("no route from node " + std::to_string(s) + " to node " + std::to_string(t) +
                    " for demand " + node_pair(s, t) + " = " + number(demand.at(s, t)) +
                    " on topology '" + topology.name() + "'");
      }
    }
    sources.push_back(s);
  }
  if (sources.empty()) {
    throw Error("max concurrent flow: demand matrix is all zero off the diagonal, so theta is "
                "unbounded");
  }
  // Demands enter the LP divided by the largest one so coefficients stay
  // near 1 whatever unit (bytes or blocks) the caller uses.
  const double scale = demand.max_off_diagonal();

  // Rows: one conservation row per (source, node other than the source),
  // then one capacity row per edge. Columns: f[source k][edge e] at
  // k * edge_count + e, then lambda last.
  const size_t commodities = sources.size();
  const size_t rows_per_commodity = static_cast<size_t>(n) - 1;
  const size_t capacity_row0 = commodities * rows_per_commodity;
  const size_t row_count = capacity_row0 + edge_count;
  const size_t lambda_col = commodities * edge_count;
  const size_t col_count = lambda_col + 1;
  if (row_count > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      col_count * 3 + static_cast<size_t>(n) * commodities >
          static_cast<size_t>(std::numeric_limits<CoinBigIndex>::max())) {
    throw Error("max concurrent flow: topology '" + topology.name() +
                "' with this demand is too large for the LP (" + std::to_string(col_count) +
                " columns)");
  }

  std::vector<CoinBigIndex> starts;
  std::vector<int> indices;
  std::vector<double> values;
  starts.reserve(col_count + 1);
  indices.reserve(col_count * 3);
  values.reserve(col_count * 3);
  std::vector<double> col_lower(col_count, 0.0);
  std::vector<double> col_upper(col_count, COIN_DBL_MAX);
  std::vector<double> objective(col_count, 0.0);

  for (size_t k = 0; k < commodities; ++k) {
    const Node s = sources[k];
    auto conservation_row = [&](Node v) {
      return static_cast<int>(k * rows_per_commodity + (v < s ? v : v - 1));
    };
    for (size_t e = 0; e < edge_count; ++e) {
      const auto [tail, head] = edges[e];
      starts.push_back(static_cast<CoinBigIndex>(indices.size()));
      // Flow into the source is never needed; fixing it at 0 lets presolve
      // drop those columns.
      if (head == s) col_upper[k * edge_count + e] = 0.0;
      // Entries in increasing row order: the commodity's rows precede the
      // capacity rows, and within them node order decides.
      std::pair<int, double> entries[2];
      int count = 0;
      if (tail != s) entries[count++] = {conservation_row(tail), -1.0};
      if (head != s) entries[count++] = {conservation_row(head), 1.0};
      if (count == 2 && entries[0].first > entries[1].first) std::swap(entries[0], entries[1]);
      for (int i = 0; i < count; ++i) {
        indices.push_back(entries[i].first);
        values.push_back(entries[i].second);
      }
      indices.push_back(static_cast<int>(capacity_row0 + e));
      values.push_back(1.0);
    }
  }
  starts.push_back(static_cast<CoinBigIndex>(indices.size()));
  for (size_t k = 0; k < commodities; ++k) {
    const Node s = sources[k];
    for (Node v = 0; v < static_cast<Node>(n); ++v) {
      if (v == s || demand.at(s, v) <= 0) continue;
      indices.push_back(static_cast<int>(k * rows_per_commodity + (v < s ? v : v - 1)));
      values.push_back(-demand.at(s, v) / scale);
    }
  }
  starts.push_back(static_cast<CoinBigIndex>(indices.size()));
  objective[lambda_col] = 1.0;

  std::vector<double> row_lower(row_count, 0.0);
  std::vector<double> row_upper(row_count, 0.0);
  for (size_t e = 0; e < edge_count; ++e) {
    row_lower[capacity_row0 + e] = -COIN_DBL_MAX;
    row_upper[capacity_row0 + e] = 1.0;
  }

  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(static_cast<int>(col_count), static_cast<int>(row_count), starts.data(),
                    indices.data(), values.data(), col_lower.data(), col_upper.data(),
                    objective.data(), row_lower.data(), row_upper.data());
  model.setOptimizationDirection(-1.0);  // maximize lambda
  // initialSolve presolves, lets CLP pick the algorithm and postsolves a
  // clean vertex: on the 64-GPU all-to-all it was as fast as plain dual or
  // primal simplex, which both left flows negative by ~1e-7.
  model.initialSolve();
  if (model.status() != 0) {
    throw Error("max concurrent flow: CLP did not reach an optimum on topology '" +
                topology.name() + "' (" + clp_status_name(model.status()) + ")");
  }
  const double* solution = model.primalColumnSolution();
  const double lambda = solution[lambda_col];

  ConcurrentFlow result;
  result.theta = lambda / scale;
  result.edge_flow.assign(static_cast<size_t>(n), std::vector<double>(edge_count, 0.0));
  result.paths.assign(static_cast<size_t>(n),
                      std::vector<std::vector<FlowPath>>(static_cast<size_t>(n)));

  std::vector<double> residual(edge_count);
  for (size_t k = 0; k < commodities; ++k) {
    const Node s = sources[k];
    for (size_t e = 0; e < edge_count; ++e) {
      const double f = solution[k * edge_count + e];
      residual[e] = f > kFlowEpsilon ? f : 0.0;
    }
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      if (t == s || demand.at(s, t) <= 0) continue;
      const double need = result.theta * demand.at(s, t);
      double remaining = need;
      std::vector<FlowPath>& out = result.paths[s][t];
      while (remaining > kCoverTolerance * need) {
        FlowPath path = widest_path(topology, adj, residual, s, t);
        if (path.links.empty()) break;
        path.amount = std::min(path.amount, remaining);
        for (uint32_t e : path.links) {
          residual[e] -= path.amount;
          if (residual[e] <= kFlowEpsilon) residual[e] = 0.0;
          result.edge_flow[s][e] += path.amount;
        }
        remaining -= path.amount;
        out.push_back(std::move(path));
      }
      if (remaining > kShortfallLimit * need) {
        throw Error("max concurrent flow: solver flow for demand " + node_pair(s, t) +
                    " on topology '" + topology.name() + "' falls short by " + number(remaining) +
                    " of " + number(need) + " (numerical trouble in the LP solution)");
      }
    }
  }
  return result;
}

}  // namespace photonsim
