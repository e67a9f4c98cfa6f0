#include "topology/source_flow_lp.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <string>
#include <utility>

#include <ClpSimplex.hpp>

#include "core/error.h"
#include "topology/clp_status.h"

namespace photonsim {

namespace {

// CLP's primal and dual feasibility tolerances for the final pass.
constexpr double kClpTolerance = 1e-10;

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// Paths from s to t through `residual` (the commodity's remaining flow):
// the widest path (Dijkstra on bottleneck width, so simple; ties to the
// lower node, then the lower edge index) until `need` is carried or t is
// cut off.
std::vector<PathShare> widest_paths(const Topology& topology,
                                    const std::vector<uint32_t>& out_begin,
                                    std::vector<double>& residual, Node s, Node t, double need) {
  const size_t n = static_cast<size_t>(topology.gpus());
  const std::vector<Edge>& edges = topology.edges();
  std::vector<PathShare> out;
  double remaining = need;
  while (remaining > 1e-12 * need) {
    std::vector<double> width(n, 0.0);
    std::vector<uint32_t> via(n, kNone);
    std::vector<bool> done(n, false);
    using Label = std::pair<double, Node>;
    auto lower_priority = [](const Label& a, const Label& b) {
      if (a.first != b.first) return a.first < b.first;
      return a.second > b.second;
    };
    std::priority_queue<Label, std::vector<Label>, decltype(lower_priority)> queue(
        lower_priority);
    width[s] = std::numeric_limits<double>::infinity();
    queue.push({width[s], s});
    while (!queue.empty()) {
      const Node u = queue.top().second;
      queue.pop();
      if (done[u]) continue;
      done[u] = true;
      if (u == t) break;
      for (uint32_t e = out_begin[u]; e < out_begin[u + 1]; ++e) {
        const Node v = edges[e].second;
        const double w = std::min(width[u], residual[e]);
        if (!done[v] && w > width[v]) {
          width[v] = w;
          via[v] = e;
          queue.push({w, v});
        }
      }
    }
    if (!done[t] || !(width[t] > 0)) break;
    PathShare path;
    path.share = std::min(width[t], remaining);
    for (Node v = t; v != s; v = edges[via[v]].first) path.links.push_back(via[v]);
    std::reverse(path.links.begin(), path.links.end());
    for (uint32_t e : path.links) {
      residual[e] -= path.share;
      if (residual[e] <= 1e-14 * need) residual[e] = 0.0;
    }
    remaining -= path.share;
    out.push_back(std::move(path));
  }
  return out;
}

// Solves to optimality at CLP's default tolerances (1e-7; the tight ones
// made the 64-GPU arc-flow LPs 3-5x slower), then tightens them and runs
// primal simplex again from the optimal basis: that pass refactorizes the
// basis, recomputes the vertex exactly (to rounding) and fixes the few
// pivots the tight tolerances still want. False when CLP stops short.
bool solve_to_optimum(ClpSimplex& model) {
  model.primal();
  if (model.status() != 0) return false;
  model.setDualTolerance(kClpTolerance);
  model.setPrimalTolerance(kClpTolerance);
  model.primal();
  return model.status() == 0;
}

}  // namespace

SourceFlowLP::SourceFlowLP(const Topology& topology, std::vector<uint32_t> group_of_edge,
                           uint32_t groups)
    : topology_(topology), group_of_edge_(std::move(group_of_edge)), groups_(groups) {}

void SourceFlowLP::add_commodity(Node source, std::vector<double> demand) {
  commodities_.push_back({source, std::move(demand)});
}

std::optional<SourceFlowLP::Result> SourceFlowLP::solve(bool least_total_flow,
                                                        std::string& failure) const {
  const size_t n = static_cast<size_t>(topology_.gpus());
  const std::vector<Edge>& edges = topology_.edges();
  const size_t edge_count = edges.size();
  const size_t commodities = commodities_.size();
  // Rows: n - 1 conservation rows per commodity (every node but its
  // source), then one capacity row per group. Columns: f[k][e] at
  // k * edge_count + e, then lambda.
  const size_t rows_per_commodity = n - 1;
  const size_t capacity_row0 = commodities * rows_per_commodity;
  const size_t row_count = capacity_row0 + groups_;
  const size_t lambda_col = commodities * edge_count;
  const size_t col_count = lambda_col + 1;
  if (row_count > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      col_count * 3 + n * commodities >
          static_cast<size_t>(std::numeric_limits<CoinBigIndex>::max())) {
    throw Error("max concurrent flow: topology '" + topology_.name() +
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
  for (size_t k = 0; k < commodities; ++k) {
    const Node s = commodities_[k].source;
    auto conservation_row = [&](Node v) {
      return static_cast<int>(k * rows_per_commodity + (v < s ? v : v - 1));
    };
    for (size_t e = 0; e < edge_count; ++e) {
      const auto [tail, head] = edges[e];
      starts.push_back(static_cast<CoinBigIndex>(indices.size()));
      // Flow back into the source never helps; fixing it at 0 lets
      // presolve drop the column.
      if (head == s) col_upper[k * edge_count + e] = 0.0;
      std::pair<int, double> entries[2];
      int count = 0;
      if (tail != s) entries[count++] = {conservation_row(tail), -1.0};
      if (head != s) entries[count++] = {conservation_row(head), 1.0};
      if (count == 2 && entries[0].first > entries[1].first) std::swap(entries[0], entries[1]);
      for (int i = 0; i < count; ++i) {
        indices.push_back(entries[i].first);
        values.push_back(entries[i].second);
      }
      indices.push_back(static_cast<int>(capacity_row0 + group_of_edge_[e]));
      values.push_back(1.0);
    }
  }
  starts.push_back(static_cast<CoinBigIndex>(indices.size()));
  for (size_t k = 0; k < commodities; ++k) {
    const Commodity& c = commodities_[k];
    for (Node v = 0; v < static_cast<Node>(n); ++v) {
      if (v == c.source || !(c.demand[v] > 0)) continue;
      indices.push_back(static_cast<int>(k * rows_per_commodity + (v < c.source ? v : v - 1)));
      values.push_back(-c.demand[v]);
    }
  }
  starts.push_back(static_cast<CoinBigIndex>(indices.size()));
  std::vector<double> objective(col_count, 0.0);
  objective[lambda_col] = 1.0;
  std::vector<double> row_lower(row_count, 0.0);
  std::vector<double> row_upper(row_count, 0.0);
  for (size_t r = capacity_row0; r < row_count; ++r) {
    row_lower[r] = -COIN_DBL_MAX;
    row_upper[r] = 1.0;
  }

  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(static_cast<int>(col_count), static_cast<int>(row_count), starts.data(),
                    indices.data(), values.data(), col_lower.data(), col_upper.data(),
                    objective.data(), row_lower.data(), row_upper.data());
  model.setOptimizationDirection(-1.0);  // maximise lambda
  if (!solve_to_optimum(model)) {
    failure = clp_status_name(model.status());
    return std::nullopt;
  }
  Result result;
  result.lambda = model.primalColumnSolution()[lambda_col];
  if (!(result.lambda > 0)) {
    failure = "lambda " + std::to_string(result.lambda);
    return std::nullopt;
  }
  result.group_dual.resize(groups_);
  for (uint32_t g = 0; g < groups_; ++g) {
    result.group_dual[g] = std::max(0.0, model.dualRowSolution()[capacity_row0 + g]);
  }
  if (least_total_flow) {
    const int lambda = static_cast<int>(lambda_col);
    model.setColumnLower(lambda, result.lambda);
    model.setColumnUpper(lambda, result.lambda);
    for (size_t j = 0; j < lambda_col; ++j) model.setObjectiveCoefficient(static_cast<int>(j), 1.0);
    model.setObjectiveCoefficient(lambda, 0.0);
    model.setOptimizationDirection(1.0);
    if (!solve_to_optimum(model)) {
      failure = clp_status_name(model.status()) + " keeping lambda";
      return std::nullopt;
    }
  }

  const double* flow = model.primalColumnSolution();
  const std::vector<uint32_t> out_begin = topology_.out_offsets();
  result.paths.resize(commodities);
  for (size_t k = 0; k < commodities; ++k) {
    const Commodity& c = commodities_[k];
    std::vector<double> residual(flow + k * edge_count, flow + (k + 1) * edge_count);
    for (double& f : residual) {
      if (!(f > 1e-14 * result.lambda)) f = 0.0;
    }
    result.paths[k].resize(n);
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      if (t == c.source || !(c.demand[t] > 0)) continue;
      const double need = result.lambda * c.demand[t];
      std::vector<PathShare>& paths = result.paths[k][t];
      paths = widest_paths(topology_, out_begin, residual, c.source, t, need);
      double carried = 0.0;
      for (const PathShare& p : paths) carried += p.share;
      if (!(carried > (1.0 - 1e-6) * need)) {
        failure = "its flow carries " + std::to_string(carried) + " of " + std::to_string(need) +
                  " from node " + std::to_string(c.source) + " to node " + std::to_string(t);
        return std::nullopt;
      }
      for (PathShare& p : paths) p.share /= need;
    }
  }
  return result;
}

}  // namespace photonsim
