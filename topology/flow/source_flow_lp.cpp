#include "topology/flow/source_flow_lp.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <string>
#include <utility>

#include <ClpSimplex.hpp>

#include "core/error.h"
#include "core/tolerances.h"
#include "topology/flow/clp_status.h"

namespace photonsim {

namespace {

constexpr uint32_t kNoSourceFlow = std::numeric_limits<uint32_t>::max();

// Paths from s to t through `residual` (the commodity's remaining flow):
// the widest path (Dijkstra on bottleneck width, so simple; ties to the
// lower node, then the lower edge index) until `need` is carried or t is
// cut off. Not BreadthFirstSearch: a label-setting search on residual widths, not hop counts.
std::vector<PathShare> widest_paths(const Topology& topology, const std::vector<uint32_t>& out_begin,
                                    std::vector<double>& residual, Node s, Node t, double need) {
  const size_t n = static_cast<size_t>(topology.gpus());
  const std::vector<Edge>& edges = topology.edges();
  std::vector<PathShare> out;
  double remaining = need;
  while (remaining > tolerance::kRoundingNoise * need) {
    std::vector<double> width(n, 0.0);
    std::vector<uint32_t> via(n, kNoSourceFlow);
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
      if (residual[e] <= tolerance::kZeroFlow * need) residual[e] = 0.0;
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
  model.setDualTolerance(tolerance::kLpFeasibility);
  model.setPrimalTolerance(tolerance::kLpFeasibility);
  model.primal();
  return model.status() == 0;
}

// The second solve of least_total_flow: lambda fixed at its optimum, the
// total flow minimised, so no flow cycles or needless detours remain.
bool minimise_total_flow(ClpSimplex& model, size_t lambda_col, double optimal_lambda, std::string& failure) {
  const int lambda = static_cast<int>(lambda_col);
  model.setColumnLower(lambda, optimal_lambda);
  model.setColumnUpper(lambda, optimal_lambda);
  for (size_t j = 0; j < lambda_col; ++j) model.setObjectiveCoefficient(static_cast<int>(j), 1.0);
  model.setObjectiveCoefficient(lambda, 0.0);
  model.setOptimizationDirection(1.0);
  if (!solve_to_optimum(model)) {
    failure = clp_status_name(model.status()) + " keeping lambda";
    return false;
  }
  return true;
}

// False, saying so in `failure`, when `paths` carry less than all but 1e-6
// of `need` from s to t.
bool carries_demand(const std::vector<PathShare>& paths, double need, Node s, Node t, std::string& failure) {
  double carried = 0.0;
  for (const PathShare& p : paths) carried += p.share;
  if (carried > (1.0 - tolerance::kUncarriedDemand) * need) return true;
  failure = "its flow carries " + std::to_string(carried) + " of " + std::to_string(need) + " from node " +
            std::to_string(s) + " to node " + std::to_string(t);
  return false;
}

}  // namespace

// Rows: n - 1 conservation rows per commodity (every node but its source),
// then one capacity row per group. Columns: f[k][e] at k * edge_count + e,
// then lambda.
struct SourceFlowLP::LpLayout {
  size_t nodes = 0;
  size_t edge_count = 0;
  size_t commodities = 0;
  size_t rows_per_commodity = 0;
  size_t capacity_row0 = 0;
  size_t row_count = 0;
  size_t lambda_col = 0;
  size_t col_count = 0;

  int conservation_row(size_t k, Node source, Node v) const {
    return static_cast<int>(k * rows_per_commodity + (v < source ? v : v - 1));
  }
};

struct SourceFlowLP::LpColumns {
  explicit LpColumns(size_t col_count) : lower(col_count, 0.0), upper(col_count, COIN_DBL_MAX) {
    starts.reserve(col_count + 1);
    indices.reserve(col_count * 3);
    values.reserve(col_count * 3);
  }

  std::vector<CoinBigIndex> starts;
  std::vector<int> indices;
  std::vector<double> values;
  std::vector<double> lower;
  std::vector<double> upper;
};

SourceFlowLP::SourceFlowLP(const Topology& topology, std::vector<uint32_t> group_of_edge, uint32_t groups)
    : topology_(topology), group_of_edge_(std::move(group_of_edge)), groups_(groups) {}

void SourceFlowLP::add_commodity(Node source, std::vector<double> demand) {
  commodities_.push_back({source, std::move(demand)});
}

std::optional<SourceFlowLP::Result> SourceFlowLP::solve(bool least_total_flow, std::string& failure) const {
  const LpLayout layout = lp_layout();
  ClpSimplex model;
  load_problem(model, layout);
  Result result;
  if (!maximise_lambda(model, layout, result, failure)) return std::nullopt;
  if (least_total_flow && !minimise_total_flow(model, layout.lambda_col, result.lambda, failure)) {
    return std::nullopt;
  }
  if (!split_into_paths(model.primalColumnSolution(), layout, result, failure)) return std::nullopt;
  return result;
}

SourceFlowLP::LpLayout SourceFlowLP::lp_layout() const {
  LpLayout layout;
  layout.nodes = static_cast<size_t>(topology_.gpus());
  layout.edge_count = topology_.edges().size();
  layout.commodities = commodities_.size();
  layout.rows_per_commodity = layout.nodes - 1;
  layout.capacity_row0 = layout.commodities * layout.rows_per_commodity;
  layout.row_count = layout.capacity_row0 + groups_;
  layout.lambda_col = layout.commodities * layout.edge_count;
  layout.col_count = layout.lambda_col + 1;
  if (layout.row_count > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      layout.col_count * 3 + layout.nodes * layout.commodities >
          static_cast<size_t>(std::numeric_limits<CoinBigIndex>::max())) {
    throw Error("max concurrent flow: topology '" + topology_.name() + "' with this demand is too large for the LP (" +
                std::to_string(layout.col_count) + " columns)");
  }
  return layout;
}

void SourceFlowLP::load_problem(ClpSimplex& model, const LpLayout& layout) const {
  LpColumns columns(layout.col_count);
  append_flow_columns(columns, layout);
  append_lambda_column(columns, layout);
  std::vector<double> objective(layout.col_count, 0.0);
  objective[layout.lambda_col] = 1.0;
  std::vector<double> row_lower(layout.row_count, 0.0);
  std::vector<double> row_upper(layout.row_count, 0.0);
  for (size_t r = layout.capacity_row0; r < layout.row_count; ++r) {
    row_lower[r] = -COIN_DBL_MAX;
    row_upper[r] = 1.0;
  }
  model.setLogLevel(0);
  model.loadProblem(static_cast<int>(layout.col_count), static_cast<int>(layout.row_count), columns.starts.data(),
                    columns.indices.data(), columns.values.data(), columns.lower.data(), columns.upper.data(),
                    objective.data(), row_lower.data(), row_upper.data());
}

// Column f[k][e]: -1 in the conservation row of e's tail, +1 in that of its
// head (neither for the source), +1 in the capacity row of e's group.
void SourceFlowLP::append_flow_columns(LpColumns& columns, const LpLayout& layout) const {
  const std::vector<Edge>& edges = topology_.edges();
  for (size_t k = 0; k < layout.commodities; ++k) {
    const Node s = commodities_[k].source;
    for (size_t e = 0; e < layout.edge_count; ++e) {
      const auto [tail, head] = edges[e];
      columns.starts.push_back(static_cast<CoinBigIndex>(columns.indices.size()));
      // Flow back into the source never helps; fixing it at 0 lets
      // presolve drop the column.
      if (head == s) columns.upper[k * layout.edge_count + e] = 0.0;
      std::pair<int, double> entries[2];
      int count = 0;
      if (tail != s) entries[count++] = {layout.conservation_row(k, s, tail), -1.0};
      if (head != s) entries[count++] = {layout.conservation_row(k, s, head), 1.0};
      if (count == 2 && entries[0].first > entries[1].first) std::swap(entries[0], entries[1]);
      for (int i = 0; i < count; ++i) {
        columns.indices.push_back(entries[i].first);
        columns.values.push_back(entries[i].second);
      }
      columns.indices.push_back(static_cast<int>(layout.capacity_row0 + group_of_edge_[e]));
      columns.values.push_back(1.0);
    }
  }
  columns.starts.push_back(static_cast<CoinBigIndex>(columns.indices.size()));
}

// Column lambda: -d(s,v) in the conservation row of every target v, so each
// row reads inflow - outflow = lambda * d(s,v).
void SourceFlowLP::append_lambda_column(LpColumns& columns, const LpLayout& layout) const {
  for (size_t k = 0; k < layout.commodities; ++k) {
    const Commodity& c = commodities_[k];
    for (Node v = 0; v < static_cast<Node>(layout.nodes); ++v) {
      if (v == c.source || !(c.demand[v] > 0)) continue;
      columns.indices.push_back(layout.conservation_row(k, c.source, v));
      columns.values.push_back(-c.demand[v]);
    }
  }
  columns.starts.push_back(static_cast<CoinBigIndex>(columns.indices.size()));
}

// Fills result.lambda and result.group_dual; false (with `failure`) unless
// CLP reaches an optimum with lambda > 0.
bool SourceFlowLP::maximise_lambda(ClpSimplex& model, const LpLayout& layout, Result& result,
                                   std::string& failure) const {
  model.setOptimizationDirection(-1.0);
  if (!solve_to_optimum(model)) {
    failure = clp_status_name(model.status());
    return false;
  }
  result.lambda = model.primalColumnSolution()[layout.lambda_col];
  if (!(result.lambda > 0)) {
    failure = "lambda " + std::to_string(result.lambda);
    return false;
  }
  result.group_dual.resize(groups_);
  for (uint32_t g = 0; g < groups_; ++g) {
    result.group_dual[g] = std::max(0.0, model.dualRowSolution()[layout.capacity_row0 + g]);
  }
  return true;
}

// Splits each commodity's arc flow into widest paths per target, as shares
// of lambda * d(s,t); false (with `failure`) when a split misses more than
// 1e-6 of a demand.
bool SourceFlowLP::split_into_paths(const double* flow, const LpLayout& layout, Result& result,
                                    std::string& failure) const {
  const size_t edge_count = layout.edge_count;
  const std::vector<uint32_t> out_begin = topology_.out_offsets();
  result.paths.resize(layout.commodities);
  for (size_t k = 0; k < layout.commodities; ++k) {
    const Commodity& c = commodities_[k];
    std::vector<double> residual(flow + k * edge_count, flow + (k + 1) * edge_count);
    for (double& f : residual) {
      if (!(f > tolerance::kZeroFlow * result.lambda)) f = 0.0;
    }
    result.paths[k].resize(layout.nodes);
    for (Node t = 0; t < static_cast<Node>(layout.nodes); ++t) {
      if (t == c.source || !(c.demand[t] > 0)) continue;
      const double need = result.lambda * c.demand[t];
      std::vector<PathShare>& paths = result.paths[k][t];
      paths = widest_paths(topology_, out_begin, residual, c.source, t, need);
      if (!carries_demand(paths, need, c.source, t, failure)) return false;
      for (PathShare& p : paths) p.share /= need;
    }
  }
  return true;
}

}  // namespace photonsim
