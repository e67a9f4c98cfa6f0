#include "topology/physical/fiber_reroute.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace photonsim {

namespace {

class Loads {
 public:
  Loads(const FiberEdges& edges, int wavelengths, const std::vector<int>& existing, const std::vector<int>& lost)
      : edges_(edges),
        w_(static_cast<size_t>(wavelengths)),
        per_wavelength_(static_cast<size_t>(edges.slots()) * w_),
        total_(edges.slot_totals(existing)),
        lost_(edges.slot_maxima(lost)) {}

  // Fibers slot s needs with `extra` more circuits on wavelength w.
  int fibers(size_t s, size_t w, int extra) const {
    int f = ceil_div(total_[s] + extra, static_cast<int>(w_));
    for (size_t v = 0; v < w_; ++v) f = std::max(f, per_wavelength_[s * w_ + v] + (v == w ? extra : 0));
    return f + lost_[s];
  }

  void add(const std::vector<int>& path, size_t w, int delta) {
    for (size_t k = 0; k + 1 < path.size(); ++k) {
      const auto s = static_cast<size_t>(edges_.slot(edges_.index(path[k], path[k + 1])));
      per_wavelength_[s * w_ + w] += delta;
      total_[s] += delta;
    }
  }

  // (z, slots at z).
  std::pair<int, int> peak() const {
    std::pair<int, int> out{0, 0};
    for (size_t s = 0; s < total_.size(); ++s) {
      const int f = fibers(s, 0, 0);
      if (f > out.first) out = {f, 0};
      if (f == out.first) ++out.second;
    }
    return out;
  }

 private:
  const FiberEdges& edges_;
  size_t w_;
  std::vector<int> per_wavelength_;
  std::vector<int> total_;
  std::vector<int> lost_;
};

}  // namespace

void reroute_fibers(const FiberEdges& edges, int servers, const std::vector<FiberDemand>& demands, int wavelengths,
                    const std::vector<int>& existing, int passes, FiberRouting& routing, const std::vector<int>& lost) {
  Loads loads(edges, wavelengths, existing, lost);
  for (size_t i = 0; i < demands.size(); ++i) {
    loads.add(routing.paths[i], static_cast<size_t>(routing.wavelength[i]), 1);
  }
  const auto v_count = static_cast<size_t>(servers);
  const int64_t m = servers + 1;
  constexpr int64_t kUnreached = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> cost(v_count);
  std::vector<int> parent(v_count);
  std::pair<int, int> before = loads.peak();
  for (int pass = 0; pass < passes && before.first > 0; ++pass) {
    for (size_t i = 0; i < demands.size(); ++i) {
      const int z = loads.peak().first;
      loads.add(routing.paths[i], static_cast<size_t>(routing.wavelength[i]), -1);
      int64_t best_cost = kUnreached;
      std::vector<int> best_path;
      size_t best_w = 0;
      for (size_t w = 0; w < std::min(static_cast<size_t>(wavelengths), i + 1); ++w) {
        std::fill(cost.begin(), cost.end(), kUnreached);
        std::fill(parent.begin(), parent.end(), -1);
        using Label = std::pair<int64_t, int>;
        std::priority_queue<Label, std::vector<Label>, std::greater<Label>> queue;
        cost[static_cast<size_t>(demands[i].src)] = 0;
        queue.push({0, demands[i].src});
        while (!queue.empty()) {
          const auto [c, u] = queue.top();
          queue.pop();
          if (c != cost[static_cast<size_t>(u)]) continue;
          if (u == demands[i].dst) break;
          for (int e = edges.out_begin(u); e < edges.out_begin(u + 1); ++e) {
            const auto slot = static_cast<size_t>(edges.slot(e));
            const int now = loads.fibers(slot, w, 0);
            const int after = loads.fibers(slot, w, 1);
            const int64_t step = after == now ? 1 : after < z ? 1 : after == z ? m : m * m;
            const int v = edges.list()[static_cast<size_t>(e)].second;
            if (c + step < cost[static_cast<size_t>(v)]) {
              cost[static_cast<size_t>(v)] = c + step;
              parent[static_cast<size_t>(v)] = u;
              queue.push({c + step, v});
            }
          }
        }
        if (cost[static_cast<size_t>(demands[i].dst)] >= best_cost) continue;
        best_cost = cost[static_cast<size_t>(demands[i].dst)];
        best_w = w;
        best_path.assign(1, demands[i].dst);
        while (best_path.back() != demands[i].src) best_path.push_back(parent[static_cast<size_t>(best_path.back())]);
        std::reverse(best_path.begin(), best_path.end());
      }
      routing.paths[i] = std::move(best_path);
      routing.wavelength[i] = static_cast<int>(best_w);
      loads.add(routing.paths[i], best_w, 1);
    }
    const std::pair<int, int> after = loads.peak();
    if (!(after < before)) break;
    before = after;
  }
  fill_fiber_loads(edges, wavelengths, existing, routing, lost);
}

}  // namespace photonsim
