#include "topology/flow/path_column_generation.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <tuple>
#include <utility>

#include <ClpSimplex.hpp>

#include "core/error.h"
#include "core/tolerances.h"
#include "topology/flow/clp_status.h"

namespace photonsim {

// The master LP keeps, for every pair k, a key path and the fractions x_p
// moved from it onto other known paths p of the pair:
//
//   minimise  c * T                                     (c = number of pairs)
//   s.t.      base_e + sum_p d(p) (a_e(p) - a_e(key(p))) x_p - T <= 0   each circuit e
//             sum_{p of pair k} x_p <= 1                               pairs that split
//             0 <= x_p <= 1
//
// base_e being the key routing's load and a_e(p) = 1 when p uses e. With the
// keys out of the LP (their share is 1 - sum x) the master has a row per
// circuit plus one per pair with two or more paths, instead of one per pair,
// which keeps CLP's iterations cheap. A pair gets its row when it first has
// two paths after the warm start, or later when a solution breaks the row
// it does not have yet (dual simplex then repairs the basis). Pricing: with
// y_e = -dual(e) >= 0 (they sum to c) and w_k = dual(row of k) <= 0, path p
// of pair k improves the master iff d(k) (y(p) - y(key(k))) - w_k < 0, so
// one Dijkstra per source over y prices every pair, and when nothing prices
// out the bound from those distances meets T. The keys and first paths come
// from a multiplicative-weights warm start (every source routed on its
// shortest-path tree under lengths growing exponentially with load): from
// fewest-hop keys the master needed 10-100x more pivots.

namespace {

// A path prices out when its reduced cost is below -tolerance::kColumnPrice * T
// (the duals sum to the number of pairs, so reduced costs are O(T)); the bound
// then trails T by at most that fraction.
// Warm start: phases (each routes every source once), the step (a circuit's
// length grows by exp(kWarmStep * load / T_est) for the load one source puts
// on it) and the share of its pair's phases a path needs to start in the
// master (the most used one is the key).
constexpr int kWarmPhases = 100;
constexpr double kWarmStep = 0.1;
constexpr double kWarmColumnShare = 0.05;
// Each round adds a path or a row, so this only guards against a bug.
constexpr int kMaxRounds = 100000;
// solve() gives up when the bound from the first pricing is below this
// fraction of the master's congestion: the duals are degenerate, every pair
// has a path of length 0, and the rounds that follow crawl (circulants
// under demands their rotations do not keep: 10-30 s where the arc-flow LP
// takes 0.2-1.2 s).
constexpr double kFirstBoundRatio = 0.5;

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// Shortest-path tree from one source under lengths >= 0, ties broken by hop
// count, then by lower node (queue order) and lower edge index (first
// strict improvement wins). Label setting yields a tree, so every tree path
// is simple even where lengths are zero. Not BreadthFirstSearch: Dijkstra on
// edge lengths, hop counts only break ties.
class ShortestPathTree {
 public:
  explicit ShortestPathTree(const Topology& topology)
      : edges_(topology.edges()),
        out_begin_(topology.out_offsets()),
        dist_(static_cast<size_t>(topology.gpus())),
        hops_(static_cast<size_t>(topology.gpus())),
        via_(static_cast<size_t>(topology.gpus())),
        done_(static_cast<size_t>(topology.gpus())) {}

  void grow(Node s, const std::vector<double>& length) {
    std::fill(dist_.begin(), dist_.end(), std::numeric_limits<double>::infinity());
    std::fill(hops_.begin(), hops_.end(), kNone);
    std::fill(via_.begin(), via_.end(), kNone);
    std::fill(done_.begin(), done_.end(), false);
    order_.clear();
    using Label = std::tuple<double, uint32_t, Node>;
    std::priority_queue<Label, std::vector<Label>, std::greater<Label>> queue;
    dist_[s] = 0.0;
    hops_[s] = 0;
    queue.push({0.0, 0, s});
    while (!queue.empty()) {
      const Node u = std::get<2>(queue.top());
      queue.pop();
      if (done_[u]) continue;
      done_[u] = true;
      order_.push_back(u);
      for (uint32_t e = out_begin_[u]; e < out_begin_[u + 1]; ++e) {
        const Node v = edges_[e].second;
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

  double dist(Node t) const { return dist_[t]; }
  uint32_t hops(Node t) const { return hops_[t]; }
  // Tree edge into t; kNone for the source and unreached nodes.
  uint32_t via(Node t) const { return via_[t]; }
  // Reached nodes in the order they were settled (each after its parent).
  const std::vector<Node>& order() const { return order_; }

  std::vector<uint32_t> links_to(Node t) const {
    std::vector<uint32_t> links;
    for (Node v = t; via_[v] != kNone; v = edges_[via_[v]].first) links.push_back(via_[v]);
    std::reverse(links.begin(), links.end());
    return links;
  }

  // Whether the tree path to t is `links` (in order from the source).
  bool path_is(Node t, const std::vector<uint32_t>& links) const {
    size_t i = links.size();
    for (Node v = t; via_[v] != kNone; v = edges_[via_[v]].first) {
      if (i == 0 || links[--i] != via_[v]) return false;
    }
    return i == 0;
  }

  // FNV-1a over the tree path's edges, from t back to the source.
  uint64_t path_hash(Node t) const {
    uint64_t hash = 1469598103934665603ull;
    for (Node v = t; via_[v] != kNone; v = edges_[via_[v]].first) {
      hash = (hash ^ via_[v]) * 1099511628211ull;
    }
    return hash;
  }

 private:
  const std::vector<Edge>& edges_;
  std::vector<uint32_t> out_begin_;
  std::vector<double> dist_;
  std::vector<uint32_t> hops_;
  std::vector<uint32_t> via_;
  std::vector<bool> done_;
  std::vector<Node> order_;
};

// The pairs grouped by source, as PathColumnGeneration holds them.
struct Pairs {
  const std::vector<PairDemand>& list;
  const std::vector<size_t>& source_begin;

  Node nodes() const { return static_cast<Node>(source_begin.size() - 1); }
  bool sends(Node s) const { return source_begin[s + 1] > source_begin[s]; }
};

// Paths seen per pair with how often the warm start used them.
struct PathCounts {
  struct Entry {
    uint64_t hash = 0;
    std::vector<uint32_t> links;
    double uses = 0.0;
  };
  std::vector<std::vector<Entry>> per_pair;
};

// Lower bound on T* from hop counts (every pair needs its fewest hops of
// capacity) and from each node's out- and in-circuits (its sends must leave
// through them, its receives arrive through them).
double simple_bound(const Topology& topology, const Pairs& pairs, ShortestPathTree& tree) {
  const Node n = pairs.nodes();
  const std::vector<double> zero(topology.edges().size(), 0.0);
  std::vector<double> sent(n, 0.0), received(n, 0.0), out_degree(n, 0.0), in_degree(n, 0.0);
  for (const Edge& e : topology.edges()) {
    out_degree[e.first] += 1.0;
    in_degree[e.second] += 1.0;
  }
  double demand_hops = 0.0;
  for (Node s = 0; s < n; ++s) {
    if (!pairs.sends(s)) continue;
    tree.grow(s, zero);
    for (size_t k = pairs.source_begin[s]; k < pairs.source_begin[s + 1]; ++k) {
      const PairDemand& p = pairs.list[k];
      demand_hops += p.demand * tree.hops(p.t);
      sent[s] += p.demand;
      received[p.t] += p.demand;
    }
  }
  double bound = demand_hops / static_cast<double>(topology.edges().size());
  for (Node u = 0; u < n; ++u) {
    if (sent[u] > 0) bound = std::max(bound, sent[u] / out_degree[u]);
    if (received[u] > 0) bound = std::max(bound, received[u] / in_degree[u]);
  }
  return bound;
}

// Multiplicative weights: every phase routes each source's demand on its
// shortest-path tree under the current lengths, then multiplies the length
// of each circuit by exp(kWarmStep * load / T_est) for the load the source
// put on it. T_est follows the averaged routing's congestion (an upper
// bound on T*) down, never below simple_bound.
PathCounts warm_start(const Topology& topology, const Pairs& pairs, ShortestPathTree& tree) {
  const std::vector<Edge>& edges = topology.edges();
  PathCounts counts;
  counts.per_pair.resize(pairs.list.size());
  std::vector<double> length(edges.size(), 1.0);
  std::vector<double> total_load(edges.size(), 0.0);
  std::vector<double> subtree(pairs.nodes(), 0.0);
  const double floor = simple_bound(topology, pairs, tree);
  double t_est = floor;
  for (int phase = 0; phase < kWarmPhases; ++phase) {
    for (Node s = 0; s < pairs.nodes(); ++s) {
      if (!pairs.sends(s)) continue;
      tree.grow(s, length);
      for (size_t k = pairs.source_begin[s]; k < pairs.source_begin[s + 1]; ++k) {
        const Node t = pairs.list[k].t;
        subtree[t] += pairs.list[k].demand;
        const uint64_t hash = tree.path_hash(t);
        bool seen = false;
        for (PathCounts::Entry& entry : counts.per_pair[k]) {
          if (entry.hash == hash && tree.path_is(t, entry.links)) {
            entry.uses += 1.0;
            seen = true;
            break;
          }
        }
        if (!seen) counts.per_pair[k].push_back({hash, tree.links_to(t), 1.0});
      }
      // The tree's loads are subtree demand sums: children before parents.
      const std::vector<Node>& order = tree.order();
      double longest = 0.0;
      for (size_t i = order.size(); i-- > 1;) {
        const Node v = order[i];
        if (subtree[v] == 0.0) continue;
        const uint32_t e = tree.via(v);
        if (edges[e].first != s) subtree[edges[e].first] += subtree[v];
        total_load[e] += subtree[v];
        // Capped so one update cannot overflow; lengths are rescaled below.
        length[e] *= std::exp(std::min(50.0, kWarmStep * subtree[v] / t_est));
        longest = std::max(longest, length[e]);
        subtree[v] = 0.0;
      }
      if (longest > 1e100) {
        for (double& y : length) y /= longest;
      }
    }
    const double busiest = *std::max_element(total_load.begin(), total_load.end());
    t_est = std::max(floor, busiest / static_cast<double>(phase + 1) / (1.0 + kWarmStep));
  }
  return counts;
}

// The restricted master LP and its column generation loop.
class PathMaster {
 public:
  PathMaster(const Topology& topology, const Pairs& pairs) : topology_(topology), pairs_(pairs), tree_(topology) {}

  std::optional<PairRouting> solve(int64_t max_iterations);

 private:
  struct Column {
    uint32_t pair = 0;
    std::vector<uint32_t> links;
  };

  void build(const PathCounts& counts);
  void append_column(const Column& c);
  void add_columns(std::vector<Column> entering);
  void add_pair_rows(const std::vector<uint32_t>& pairs);
  bool solve_lp(bool dual, int64_t max_iterations);

  // One pricing round: the paths that improve the master, and the lower
  // bound on T the distances give.
  struct Pricing {
    std::vector<Column> entering;
    double bound = 0.0;
  };
  std::vector<uint32_t> pairs_outgrowing_their_key(const double* x) const;
  Pricing price_pairs(const double* x, std::vector<double>& length);
  PairRouting current_routing(double bound) const;

  const Topology& topology_;
  const Pairs& pairs_;
  ShortestPathTree tree_;
  std::vector<std::vector<uint32_t>> key_;           // per pair
  std::vector<Column> columns_;                      // master column 1 + i
  std::vector<std::vector<uint32_t>> pair_columns_;  // per pair, into columns_
  std::vector<int> pair_row_;                        // -1 while the pair has none
  ClpSimplex model_;
  std::vector<double> coef_;  // scratch, zero between uses
  std::vector<CoinBigIndex> starts_;
  std::vector<int> indices_;
  std::vector<double> values_;
  int64_t iterations_ = 0;
};

void PathMaster::append_column(const Column& c) {
  starts_.push_back(static_cast<CoinBigIndex>(indices_.size()));
  const double d = pairs_.list[c.pair].demand;
  std::vector<uint32_t> touched;
  for (uint32_t e : c.links) {
    coef_[e] += d;
    touched.push_back(e);
  }
  for (uint32_t e : key_[c.pair]) {
    coef_[e] -= d;
    touched.push_back(e);
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (uint32_t e : touched) {
    if (coef_[e] != 0.0) {
      indices_.push_back(static_cast<int>(e));
      values_.push_back(coef_[e]);
    }
    coef_[e] = 0.0;
  }
  if (pair_row_[c.pair] >= 0) {
    indices_.push_back(pair_row_[c.pair]);
    values_.push_back(1.0);
  }
}

void PathMaster::build(const PathCounts& counts) {
  const size_t edge_count = topology_.edges().size();
  const size_t pair_count = pairs_.list.size();
  coef_.assign(edge_count, 0.0);
  key_.resize(pair_count);
  pair_columns_.assign(pair_count, {});
  pair_row_.assign(pair_count, -1);
  std::vector<Column> initial;
  for (size_t k = 0; k < pair_count; ++k) {
    const std::vector<PathCounts::Entry>& entries = counts.per_pair[k];
    size_t key = 0;
    double uses = 0.0;
    for (size_t j = 0; j < entries.size(); ++j) {
      uses += entries[j].uses;
      if (entries[j].uses > entries[key].uses) key = j;
    }
    key_[k] = entries[key].links;
    for (size_t j = 0; j < entries.size(); ++j) {
      if (j != key && entries[j].uses >= kWarmColumnShare * uses) {
        initial.push_back({static_cast<uint32_t>(k), entries[j].links});
      }
    }
  }
  std::vector<double> base(edge_count, 0.0);
  for (size_t k = 0; k < pair_count; ++k) {
    for (uint32_t e : key_[k]) base[e] += pairs_.list[k].demand;
  }
  const size_t busiest = static_cast<size_t>(std::max_element(base.begin(), base.end()) - base.begin());

  // Column 0 is T; row e reads base_e + (moves) - T <= 0.
  starts_.assign(1, 0);
  indices_.clear();
  values_.clear();
  for (size_t e = 0; e < edge_count; ++e) {
    indices_.push_back(static_cast<int>(e));
    values_.push_back(-1.0);
  }
  starts_.push_back(static_cast<CoinBigIndex>(indices_.size()));
  const double col_lower[] = {0.0};
  const double col_upper[] = {COIN_DBL_MAX};
  const double objective[] = {static_cast<double>(pair_count)};
  const std::vector<double> row_lower(edge_count, -COIN_DBL_MAX);
  std::vector<double> row_upper(edge_count);
  for (size_t e = 0; e < edge_count; ++e) row_upper[e] = -base[e];
  model_.setLogLevel(0);
  model_.loadProblem(1, static_cast<int>(edge_count), starts_.data(), indices_.data(), values_.data(), col_lower,
                     col_upper, objective, row_lower.data(), row_upper.data());
  model_.setDualTolerance(tolerance::kLpFeasibility);
  model_.setPrimalTolerance(tolerance::kLpFeasibility);
  // Start at the key routing: T basic, the busiest circuit tight.
  model_.setColumnStatus(0, ClpSimplex::basic);
  for (size_t e = 0; e < edge_count; ++e) {
    model_.setRowStatus(static_cast<int>(e), e == busiest ? ClpSimplex::atUpperBound : ClpSimplex::basic);
  }
  add_columns(std::move(initial));
  std::vector<uint32_t> split;
  for (size_t k = 0; k < pair_count; ++k) {
    if (pair_columns_[k].size() >= 2) split.push_back(static_cast<uint32_t>(k));
  }
  add_pair_rows(split);
}

void PathMaster::add_columns(std::vector<Column> entering) {
  if (entering.empty()) return;
  starts_.clear();
  indices_.clear();
  values_.clear();
  for (const Column& c : entering) append_column(c);
  starts_.push_back(static_cast<CoinBigIndex>(indices_.size()));
  const size_t added = entering.size();
  const std::vector<double> col_lower(added, 0.0);
  const std::vector<double> col_upper(added, 1.0);
  const std::vector<double> objective(added, 0.0);
  const int first = model_.numberColumns();
  model_.addColumns(static_cast<int>(added), col_lower.data(), col_upper.data(), objective.data(), starts_.data(),
                    indices_.data(), values_.data());
  for (size_t i = 0; i < added; ++i) {
    model_.setColumnStatus(first + static_cast<int>(i), ClpSimplex::atLowerBound);
    pair_columns_[entering[i].pair].push_back(static_cast<uint32_t>(columns_.size()));
    columns_.push_back(std::move(entering[i]));
  }
}

void PathMaster::add_pair_rows(const std::vector<uint32_t>& pairs) {
  if (pairs.empty()) return;
  starts_.clear();
  indices_.clear();
  values_.clear();
  for (uint32_t k : pairs) {
    starts_.push_back(static_cast<CoinBigIndex>(indices_.size()));
    for (uint32_t i : pair_columns_[k]) {
      indices_.push_back(static_cast<int>(1 + i));
      values_.push_back(1.0);
    }
  }
  starts_.push_back(static_cast<CoinBigIndex>(indices_.size()));
  const std::vector<double> row_lower(pairs.size(), -COIN_DBL_MAX);
  const std::vector<double> row_upper(pairs.size(), 1.0);
  const int first = model_.numberRows();
  model_.addRows(static_cast<int>(pairs.size()), row_lower.data(), row_upper.data(), starts_.data(), indices_.data(),
                 values_.data());
  for (size_t i = 0; i < pairs.size(); ++i) {
    model_.setRowStatus(first + static_cast<int>(i), ClpSimplex::basic);
    pair_row_[pairs[i]] = first + static_cast<int>(i);
  }
}

// Re-optimises from the current basis: primal simplex after new columns
// (the basis stays primal feasible), dual simplex after new rows (it stays
// dual feasible). A second primal pass refactorizes the final basis and
// recomputes the vertex from it: the first pass leaves errors near the
// tolerance, the second is exact to rounding. False when the iteration
// budget runs out first.
bool PathMaster::solve_lp(bool dual, int64_t max_iterations) {
  for (int pass = 0; pass < 2; ++pass) {
    model_.setMaximumIterations(static_cast<int>(
        std::min<int64_t>(std::numeric_limits<int>::max(), std::max<int64_t>(0, max_iterations - iterations_))));
    if (pass == 0 && dual) {
      model_.dual();
    } else {
      model_.primal();
    }
    iterations_ += model_.numberIterations();
    if (model_.status() == 3 && iterations_ >= max_iterations) return false;
    if (model_.status() != 0) {
      throw Error("max concurrent flow: CLP did not reach an optimum on topology '" + topology_.name() + "' (" +
                  clp_status_name(model_.status()) + ")");
    }
  }
  return true;
}

std::optional<PairRouting> PathMaster::solve(int64_t max_iterations) {
  build(warm_start(topology_, pairs_, tree_));

  std::vector<double> length(topology_.edges().size(), 0.0);
  double bound = 0.0;
  bool dual = false;
  bool priced = false;
  for (int round = 0;; ++round) {
    if (round >= kMaxRounds) {
      throw Error("max concurrent flow: column generation did not converge on topology '" + topology_.name() +
                  "' after " + std::to_string(kMaxRounds) + " rounds");
    }
    if (!solve_lp(dual, max_iterations)) return std::nullopt;
    const double* x = model_.primalColumnSolution();

    const std::vector<uint32_t> broken = pairs_outgrowing_their_key(x);
    if (!broken.empty()) {
      add_pair_rows(broken);
      dual = true;
      continue;
    }

    Pricing pricing = price_pairs(x, length);
    bound = pricing.bound;
    // Degenerate duals at the first pricing (on the instances the column
    // generation suits, the bound is within 10% of T here, if not equal).
    if (!priced && bound < kFirstBoundRatio * x[0]) return std::nullopt;
    priced = true;
    if (pricing.entering.empty()) break;
    add_columns(std::move(pricing.entering));
    dual = false;
  }
  return current_routing(bound);
}

// A pair moving more than its whole demand off its key gets its row.
std::vector<uint32_t> PathMaster::pairs_outgrowing_their_key(const double* x) const {
  std::vector<uint32_t> broken;
  for (size_t k = 0; k < pairs_.list.size(); ++k) {
    if (pair_row_[k] >= 0 || pair_columns_[k].size() < 2) continue;
    double moved = 0.0;
    for (uint32_t i : pair_columns_[k]) moved += x[1 + i];
    if (moved > 1.0 + tolerance::kLpFeasibility) broken.push_back(static_cast<uint32_t>(k));
  }
  return broken;
}

// Prices every pair with one Dijkstra per source over the circuits' dual
// lengths (written into `length`); the distances also give the bound.
PathMaster::Pricing PathMaster::price_pairs(const double* x, std::vector<double>& length) {
  const size_t edge_count = topology_.edges().size();
  const double* row_dual = model_.dualRowSolution();
  double length_sum = 0.0;
  for (size_t e = 0; e < edge_count; ++e) {
    length[e] = std::max(0.0, -row_dual[e]);
    length_sum += length[e];
  }
  const double tolerance = tolerance::kColumnPrice * x[0] * length_sum / static_cast<double>(pairs_.list.size());
  Pricing pricing;
  double total = 0.0;
  for (Node s = 0; s < pairs_.nodes(); ++s) {
    if (!pairs_.sends(s)) continue;
    tree_.grow(s, length);
    for (size_t k = pairs_.source_begin[s]; k < pairs_.source_begin[s + 1]; ++k) {
      const double d = pairs_.list[k].demand;
      const Node t = pairs_.list[k].t;
      total += d * tree_.dist(t);
      double key_length = 0.0;
      for (uint32_t e : key_[k]) key_length += length[e];
      const double w = pair_row_[k] >= 0 ? std::min(0.0, row_dual[pair_row_[k]]) : 0.0;
      if (!(d * (tree_.dist(t) - key_length) - w < -tolerance)) continue;
      if (tree_.path_is(t, key_[k])) continue;
      bool known = false;
      for (uint32_t i : pair_columns_[k]) known = known || tree_.path_is(t, columns_[i].links);
      if (!known) pricing.entering.push_back({static_cast<uint32_t>(k), tree_.links_to(t)});
    }
  }
  pricing.bound = length_sum > 0 ? total / length_sum : 0.0;
  return pricing;
}

// The master's solution as paths per pair: the key keeps what the other
// paths do not take.
PairRouting PathMaster::current_routing(double bound) const {
  const double* x = model_.primalColumnSolution();
  const size_t pair_count = pairs_.list.size();
  PairRouting routing;
  routing.paths.resize(pair_count);
  routing.congestion_bound = bound;
  for (size_t k = 0; k < pair_count; ++k) {
    double key_share = 1.0;
    for (uint32_t i : pair_columns_[k]) key_share -= x[1 + i];
    routing.paths[k].push_back({key_[k], key_share});
    for (uint32_t i : pair_columns_[k]) routing.paths[k].push_back({columns_[i].links, x[1 + i]});
  }
  return routing;
}

}  // namespace

PathColumnGeneration::PathColumnGeneration(const Topology& topology, std::vector<PairDemand> pairs)
    : topology_(topology), pairs_(std::move(pairs)), source_begin_(static_cast<size_t>(topology.gpus()) + 1, 0) {
  for (const PairDemand& p : pairs_) ++source_begin_[p.s + 1];
  for (size_t s = 1; s < source_begin_.size(); ++s) source_begin_[s] += source_begin_[s - 1];
}

std::optional<PairRouting> PathColumnGeneration::solve(int64_t max_iterations) const {
  const Pairs pairs{pairs_, source_begin_};
  PathMaster master(topology_, pairs);
  return master.solve(max_iterations);
}

double PathColumnGeneration::congestion_bound(const std::vector<double>& length) const {
  double length_sum = 0.0;
  for (double y : length) length_sum += y;
  if (!(length_sum > 0)) return 0.0;
  const Pairs pairs{pairs_, source_begin_};
  ShortestPathTree tree(topology_);
  double total = 0.0;
  for (Node s = 0; s < pairs.nodes(); ++s) {
    if (!pairs.sends(s)) continue;
    tree.grow(s, length);
    for (size_t k = source_begin_[s]; k < source_begin_[s + 1]; ++k) {
      total += pairs_[k].demand * tree.dist(pairs_[k].t);
    }
  }
  return total / length_sum;
}

}  // namespace photonsim
