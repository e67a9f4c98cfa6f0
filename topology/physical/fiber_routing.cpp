#include "topology/physical/fiber_routing.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <cmath>
#include <limits>
#include <queue>
#include <string>

#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include "core/error.h"
#include "topology/physical/fiber_loads.h"
#include "topology/physical/fiber_reroute.h"
#include "topology/physical/fiber_start_routing.h"

namespace photonsim {

namespace {

constexpr double kHalf = 0.5;       // a binary variable at or above is 1
constexpr double kIntegral = 1e-6;  // CBC's bound is rounded up past this
constexpr int kReroutePasses = 30;

// Columns: x[i][w][e] at (i * W + w) * E + e, then y[i][w] (demand i takes
// wavelength w) at X + i * W + w, then z.
// Rows: one wavelength per demand (W > 1 only), flow conservation per
// (i, w, server), z above every (slot, wavelength) load and, with W > 1,
// W z above every slot's load of all wavelengths plus its existing circuits
// (a slot is an edge, or with shared directions a link: fiber_loads.h); a
// slot's lost fibers raise both (by lost, and W lost).
class FiberIlp {
 public:
  FiberIlp(const FiberEdges& edges, int servers, const std::vector<FiberDemand>& demands, int wavelengths,
           const std::vector<int>& existing, const std::vector<int>& lost, int z_floor)
      : edges_(edges),
        demands_(demands),
        n_(demands.size()),
        w_(static_cast<size_t>(wavelengths)),
        e_(static_cast<size_t>(edges.size())),
        s_(static_cast<size_t>(edges.slots())),
        v_(static_cast<size_t>(servers)) {
    build(existing, lost, z_floor);
  }

  size_t columns() const { return x_count() + n_ * w_ + 1; }
  size_t x(size_t i, size_t w, size_t e) const { return (i * w_ + w) * e_ + e; }
  size_t y(size_t i, size_t w) const { return x_count() + i * w_ + w; }
  size_t z() const { return columns() - 1; }

  OsiClpSolverInterface& solver() { return solver_; }

  std::vector<double> column_values(const FiberRouting& routing) const {
    std::vector<double> values(columns(), 0.0);
    for (size_t i = 0; i < n_; ++i) {
      const size_t w = static_cast<size_t>(routing.wavelength[i]);
      values[y(i, w)] = 1.0;
      const std::vector<int>& path = routing.paths[i];
      for (size_t k = 0; k + 1 < path.size(); ++k) {
        values[x(i, w, static_cast<size_t>(edges_.index(path[k], path[k + 1])))] = 1.0;
      }
    }
    values[z()] = routing.fibers;
    return values;
  }

  // Each demand's wavelength and its shortest src..dst path over the edges
  // CBC set to 1; a circulation detached from (or crossing) it is dropped.
  FiberRouting routing(const double* values) const {
    FiberRouting out;
    for (size_t i = 0; i < n_; ++i) {
      size_t w = 0;
      while (w + 1 < w_ && values[y(i, w)] < kHalf) ++w;
      out.wavelength.push_back(static_cast<int>(w));
      out.paths.push_back(support_path(values, i, w));
    }
    return out;
  }

 private:
  size_t x_count() const { return n_ * w_ * e_; }

  std::vector<int> support_path(const double* values, size_t i, size_t w) const {
    const int src = demands_[i].src;
    const int dst = demands_[i].dst;
    std::vector<int> parent(v_, -1);
    parent[static_cast<size_t>(src)] = src;
    std::queue<int> queue;
    queue.push(src);
    while (!queue.empty() && parent[static_cast<size_t>(dst)] < 0) {
      const int u = queue.front();
      queue.pop();
      for (int e = edges_.out_begin(u); e < edges_.out_begin(u + 1); ++e) {
        const int v = edges_.list()[static_cast<size_t>(e)].second;
        if (parent[static_cast<size_t>(v)] >= 0 || values[x(i, w, static_cast<size_t>(e))] < kHalf) continue;
        parent[static_cast<size_t>(v)] = u;
        queue.push(v);
      }
    }
    if (parent[static_cast<size_t>(dst)] < 0) {
      throw Error("fiber routing: CBC's solution has no path for demand " + std::to_string(i));
    }
    std::vector<int> path{dst};
    while (path.back() != src) path.push_back(parent[static_cast<size_t>(path.back())]);
    std::reverse(path.begin(), path.end());
    return path;
  }

  void build(const std::vector<int>& existing_per_edge, const std::vector<int>& lost_per_edge, int z_floor) {
    const double inf = solver_.getInfinity();
    const bool choose_rows = w_ > 1;
    const size_t flow_base = choose_rows ? n_ : 0;
    const size_t cap_base = flow_base + n_ * w_ * v_;
    const size_t total_base = cap_base + s_ * w_;
    const bool has_existing = !existing_per_edge.empty();
    const std::vector<int> existing = edges_.slot_totals(existing_per_edge);
    const std::vector<int> lost = edges_.slot_maxima(lost_per_edge);
    std::vector<size_t> total_row(s_, 0);  // 0: none
    size_t rows = total_base;
    if (w_ > 1 && has_existing) {
      for (size_t s = 0; s < s_; ++s) {
        if (existing[s] > 0) total_row[s] = ++rows;
      }
    }
    std::vector<double> row_lb(rows, 0.0);
    std::vector<double> row_ub(rows, 0.0);
    for (size_t i = 0; choose_rows && i < n_; ++i) row_lb[i] = row_ub[i] = 1.0;
    for (size_t s = 0; s < s_; ++s) {
      for (size_t w = 0; w < w_; ++w) {
        row_lb[cap_base + s * w_ + w] = (w_ == 1 && has_existing ? existing[s] : 0.0) + lost[s];
        row_ub[cap_base + s * w_ + w] = inf;
      }
      if (total_row[s] > 0) {
        row_lb[total_row[s] - 1] = existing[s] + static_cast<double>(w_) * lost[s];
        row_ub[total_row[s] - 1] = inf;
      }
    }

    // Column-ordered arrays (CoinPackedMatrix::appendCol reallocates per column).
    std::vector<double> col_lb(columns(), 0.0);
    std::vector<double> col_ub(columns(), 1.0);
    std::vector<CoinBigIndex> starts{0};
    std::vector<int> index;
    std::vector<double> value;
    starts.reserve(columns() + 1);
    index.reserve(4 * x_count() + 3 * n_ * w_ + s_ * (w_ + 1));
    value.reserve(index.capacity());
    auto add = [&](size_t row, double coefficient) {
      index.push_back(static_cast<int>(row));
      value.push_back(coefficient);
    };
    auto flush = [&]() { starts.push_back(static_cast<CoinBigIndex>(index.size())); };
    for (size_t i = 0; i < n_; ++i) {
      const FiberDemand& d = demands_[i];
      for (size_t w = 0; w < w_; ++w) {
        const size_t flow = flow_base + (i * w_ + w) * v_;
        for (size_t e = 0; e < e_; ++e) {
          const auto& [a, b] = edges_.list()[e];
          const auto slot = static_cast<size_t>(edges_.slot(static_cast<int>(e)));
          add(flow + static_cast<size_t>(a), 1.0);
          add(flow + static_cast<size_t>(b), -1.0);
          add(cap_base + slot * w_ + w, -1.0);
          if (total_row[slot] > 0) add(total_row[slot] - 1, -1.0);
          flush();
          // The source receives nothing, the destination sends nothing, and
          // demand i takes a wavelength w <= i: any routing can be relabelled
          // so (existing circuits have free wavelengths).
          if (b == d.src || a == d.dst || w > i) col_ub[x(i, w, e)] = 0.0;
        }
      }
    }
    for (size_t i = 0; i < n_; ++i) {
      const FiberDemand& d = demands_[i];
      for (size_t w = 0; w < w_; ++w) {
        const size_t flow = flow_base + (i * w_ + w) * v_;
        if (choose_rows) add(i, 1.0);
        add(flow + static_cast<size_t>(d.src), -1.0);
        add(flow + static_cast<size_t>(d.dst), 1.0);
        flush();
        if (w > i) col_ub[y(i, w)] = 0.0;
        if (w_ == 1) col_lb[y(i, w)] = 1.0;
      }
    }
    for (size_t s = 0; s < s_; ++s) {
      for (size_t w = 0; w < w_; ++w) add(cap_base + s * w_ + w, 1.0);
      if (total_row[s] > 0) add(total_row[s] - 1, static_cast<double>(w_));
    }
    flush();
    col_lb[z()] = z_floor;
    col_ub[z()] = inf;

    std::vector<double> objective(columns(), 0.0);
    objective[z()] = 1.0;
    const CoinPackedMatrix matrix(true, static_cast<int>(rows), static_cast<int>(columns()),
                                  static_cast<CoinBigIndex>(index.size()), value.data(), index.data(), starts.data(),
                                  nullptr);
    solver_.loadProblem(matrix, col_lb.data(), col_ub.data(), objective.data(), row_lb.data(), row_ub.data());
    for (size_t c = 0; c < columns(); ++c) solver_.setInteger(static_cast<int>(c));
    solver_.messageHandler()->setLogLevel(0);
  }

  const FiberEdges& edges_;
  const std::vector<FiberDemand>& demands_;
  size_t n_, w_, e_, s_, v_;
  OsiClpSolverInterface solver_;
};

int no_callback(CbcModel* /*model*/, int /*where*/) { return 0; }

// CBC's standard driver (preprocessing, cuts, heuristics, as the cbc
// command runs it) from `start`, silent, one thread, fixed seeds, stopping
// after `seconds` of wall clock.
void solve_with_cbc(CbcModel& model, const std::vector<double>& start, double seconds) {
  CbcSolverUsefulData data;
  CbcMain0(model, data);
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  std::vector<std::string> names;
  std::vector<const char*> name_ptrs;
  names.reserve(start.size());
  for (size_t c = 0; c < start.size(); ++c) names.push_back(model.solver()->getColName(static_cast<int>(c)));
  for (const std::string& name : names) name_ptrs.push_back(name.c_str());
  model.setMIPStart(static_cast<int>(start.size()), name_ptrs.data(), start.data());
  const std::string limit = std::to_string(std::max(seconds, 0.0));
  const char* argv[] = {"photonsim_fiber_routing", "-log", "0", "-slog", "0", "-timeMode", "elapsed", "-sec",
                        limit.c_str(), "-randomCbcSeed", "1", "-randomSeed", "1", "-threads", "0",
                        // CBC 2.10's preprocessing crashes in CglPreProcess::postProcess when
                        // the time limit runs out inside it (three suites at once segfaulted
                        // 3 of 3); without it the figures are the same and no slower.
                        "-preprocess", "off", "-solve", "-quit"};
  CbcMain1(static_cast<int>(std::size(argv)), argv, model, no_callback, data);
}

}  // namespace

FiberRouting route_fibers(const ServerGrid& grid, const std::vector<FiberDemand>& demands,
                          const FiberRoutingOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  check_fiber_inputs(grid, demands, options.wavelengths, options.existing, options.lost);
  const FiberEdges edges(grid, options.shared_directions);
  int floor = fiber_cut_lower_bound(grid, demands, options.wavelengths, options.existing, options.shared_directions);
  if (!options.lost.empty()) {
    // Every slot needs its lost fibers on top of its existing circuits' (the cut bound, which ignores them, stays valid).
    const std::vector<int> lost = edges.slot_maxima(options.lost);
    const std::vector<int> existing = edges.slot_totals(options.existing);
    for (size_t s = 0; s < lost.size(); ++s) {
      const int before = existing.empty() ? 0 : ceil_div(existing[s], options.wavelengths);
      floor = std::max(floor, before + lost[s]);
    }
  }
  FiberRouting best = fiber_start_routing(grid, edges, demands, options.wavelengths, options.existing, options.lost);
  if (options.reroute) {
    reroute_fibers(edges, grid.servers(), demands, options.wavelengths, options.existing, kReroutePasses, best,
                   options.lost);
  }
  best.best_bound = floor;
  const int64_t columns =
      static_cast<int64_t>(demands.size()) * edges.size() * static_cast<int64_t>(options.wavelengths);
  if (!demands.empty() && best.fibers > floor && columns <= options.max_ilp_columns) {
    FiberIlp ilp(edges, grid.servers(), demands, options.wavelengths, options.existing, options.lost, floor);
    const std::vector<double> start_values = ilp.column_values(best);
    CbcModel model(ilp.solver());
    solve_with_cbc(model, start_values, options.time_limit_s);
    if (model.bestSolution() != nullptr) {
      FiberRouting found = ilp.routing(model.bestSolution());
      fill_fiber_loads(edges, options.wavelengths, options.existing, found, options.lost);
      if (found.fibers < best.fibers) best = std::move(found);
    }
    best.ilp = true;
    best.best_bound = std::max<double>(floor, std::ceil(model.getBestPossibleObjValue() - kIntegral));
  }
  best.best_bound = std::min<double>(best.best_bound, best.fibers);
  best.optimal = best.fibers <= best.best_bound;
  best.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return best;
}

}  // namespace photonsim
