#pragma once
// Contract: the arc-flow LP of max concurrent flow with one commodity per
// source: maximise lambda such that every commodity (a source s with a
// demand row d(s,.)) sends lambda * d(s,t) to each target t over the
// circuits, while the flow of all commodities on the circuits of each
// capacity group sums to at most 1. max_concurrent_flow uses one group per
// circuit (the plain LP, its fallback) or, for a symmetric instance, one
// commodity and a group per orbit of circuits. Solved by CLP to a vertex
// (a second pass refactorizes the final basis, so the vertex is exact to
// rounding); with least_total_flow a second solve keeps lambda and
// minimises the total flow, so no flow cycles or needless detours remain.
// Each commodity's flow is split into simple paths per target (widest path
// first, ties to the lower node and edge index), as shares of lambda *
// d(s,t). solve() returns nullopt, saying why in `failure` (CLP's status or
// the pair), when CLP stops short of an optimum or the split misses more
// than 1e-6 of a demand. Pure and deterministic.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topology/flow/path_column_generation.h"
#include "topology/topology.h"

class ClpSimplex;

namespace photonsim {

class SourceFlowLP {
 public:
  struct Result {
    double lambda = 0.0;
    std::vector<double> group_dual;  // per capacity group, >= 0
    // [commodity][target]: paths with shares of lambda * d(s,t) (empty when
    // d(s,t) = 0).
    std::vector<std::vector<std::vector<PathShare>>> paths;
  };

  // group_of_edge[e] < groups for every circuit e.
  SourceFlowLP(const Topology& topology, std::vector<uint32_t> group_of_edge, uint32_t groups);

  // demand[t] = d(s,t) >= 0 (demand[source] ignored); every target with
  // demand must be reachable from the source.
  void add_commodity(Node source, std::vector<double> demand);

  std::optional<Result> solve(bool least_total_flow, std::string& failure) const;

 private:
  struct Commodity {
    Node source = 0;
    std::vector<double> demand;
  };
  struct LpLayout;   // where each row and column sits
  struct LpColumns;  // the constraint matrix, column-major, with its bounds

  LpLayout lp_layout() const;
  void load_problem(ClpSimplex& model, const LpLayout& layout) const;
  void append_flow_columns(LpColumns& columns, const LpLayout& layout) const;
  void append_lambda_column(LpColumns& columns, const LpLayout& layout) const;
  bool maximise_lambda(ClpSimplex& model, const LpLayout& layout, Result& result, std::string& failure) const;
  bool split_into_paths(const double* flow, const LpLayout& layout, Result& result, std::string& failure) const;

  const Topology& topology_;
  std::vector<uint32_t> group_of_edge_;
  uint32_t groups_ = 0;
  std::vector<Commodity> commodities_;
};

}  // namespace photonsim
