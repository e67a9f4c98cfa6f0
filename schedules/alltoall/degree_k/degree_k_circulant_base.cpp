#include "schedules/alltoall/degree_k/degree_k_circulant_base.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>
#include <utility>

#include "core/rng.h"
#include "topology/breadth_first_search.h"

namespace photonsim {

namespace {

constexpr int64_t kExhaustiveWork = 4'000'000;  // sets * n * k breadth-first steps
constexpr int kSamples = 256;
constexpr int kClimbs = 4;
constexpr int kClimbTries = 256;
constexpr int kPackings = 32;
constexpr int64_t kUnreachable = std::numeric_limits<int64_t>::max();

// DegreeKReferencePacker::hop_bound over every offset, without counting paths;
// kUnreachable when the generators miss a node.
int64_t bound_of(int n, const std::vector<int>& generators) {
  BreadthFirstSearch search(circulant_successor_lists(n, generators));
  search.run(0);
  if (static_cast<int>(search.order().size()) < n) return kUnreachable;
  std::vector<int> distance = search.distances();
  std::sort(distance.begin() + 1, distance.end(), std::greater<>());
  int64_t bound = 0;
  for (size_t i = 1; i < distance.size(); i += generators.size()) bound += distance[i];
  return bound;
}

// Number of k-sets of 1..n-1 times the cost of ranking one, saturating.
int64_t exhaustive_work(int n, int k) {
  double sets = 1;
  for (int i = 0; i < k; ++i) sets = sets * (n - 1 - i) / (i + 1);
  const double work = sets * n * k;
  return work > static_cast<double>(kExhaustiveWork) ? kExhaustiveWork + 1 : static_cast<int64_t>(work);
}

// The smallest image of the set under multiplication by a unit of Z_n.
std::vector<int> multiplier_class(int n, const std::vector<int>& generators) {
  std::vector<int> best = generators;
  std::vector<int> image(generators.size());
  for (int a = 2; a < n; ++a) {
    if (std::gcd(a, n) != 1) continue;
    for (size_t i = 0; i < generators.size(); ++i) image[i] = static_cast<int>(int64_t{a} * generators[i] % n);
    std::sort(image.begin(), image.end());
    best = std::min(best, image);
  }
  return best;
}

using Ranked = std::vector<std::pair<int64_t, std::vector<int>>>;

Ranked rank_every_set(int n, int k) {
  Ranked ranked;
  std::vector<int> set(static_cast<size_t>(k));
  std::iota(set.begin(), set.end(), 1);
  for (;;) {
    const int64_t bound = bound_of(n, set);
    if (bound != kUnreachable) ranked.push_back({bound, set});
    int i = k - 1;  // next k-set in lexicographic order
    while (i >= 0 && set[static_cast<size_t>(i)] == n - k + i) --i;
    if (i < 0) break;
    ++set[static_cast<size_t>(i)];
    for (int j = i + 1; j < k; ++j) set[static_cast<size_t>(j)] = set[static_cast<size_t>(j - 1)] + 1;
  }
  return ranked;
}

Ranked rank_sampled_sets(int n, int k, uint64_t seed) {
  Rng rng(seed ^ 0x5eed'c1c0'1a17ULL);
  std::set<std::vector<int>> seen;
  Ranked ranked;
  auto consider = [&](std::vector<int> set) -> int64_t {
    std::sort(set.begin(), set.end());
    if (!seen.insert(set).second) return kUnreachable;
    const int64_t bound = bound_of(n, set);
    if (bound != kUnreachable) ranked.push_back({bound, std::move(set)});
    return bound;
  };
  std::vector<int> values(static_cast<size_t>(n - 1));
  std::iota(values.begin(), values.end(), 1);
  for (int s = 0; s < kSamples; ++s) {
    for (int i = 0; i < k; ++i) {  // partial Fisher-Yates: k distinct values
      const auto j = static_cast<size_t>(i) + static_cast<size_t>(rng.uniform(values.size() - static_cast<size_t>(i)));
      std::swap(values[static_cast<size_t>(i)], values[j]);
    }
    consider(std::vector<int>(values.begin(), values.begin() + k));
  }
  std::sort(ranked.begin(), ranked.end());
  const size_t climbs = std::min<size_t>(kClimbs, ranked.size());
  for (size_t c = 0; c < climbs; ++c) {
    std::vector<int> current = ranked[c].second;
    int64_t current_bound = ranked[c].first;
    for (int t = 0; t < kClimbTries; ++t) {
      std::vector<int> next = current;
      const int value = 1 + static_cast<int>(rng.uniform(static_cast<uint64_t>(n - 1)));
      if (std::find(next.begin(), next.end(), value) != next.end()) continue;
      next[static_cast<size_t>(rng.uniform(static_cast<uint64_t>(k)))] = value;
      std::sort(next.begin(), next.end());
      const int64_t bound = consider(next);
      if (bound < current_bound) {
        current = std::move(next);
        current_bound = bound;
      }
    }
  }
  return ranked;
}

}  // namespace

CirculantBase circulant_base(int gpus, int ports, uint64_t seed, WorkProgress* progress) {
  const int k = std::min(ports, gpus - 1);
  std::vector<int> all_offsets(static_cast<size_t>(gpus - 1));
  std::iota(all_offsets.begin(), all_offsets.end(), 1);
  Ranked ranked =
      exhaustive_work(gpus, k) <= kExhaustiveWork ? rank_every_set(gpus, k) : rank_sampled_sets(gpus, k, seed);
  std::sort(ranked.begin(), ranked.end());

  CirculantBase best;
  int64_t best_cost = std::numeric_limits<int64_t>::max();
  std::set<std::vector<int>> classes_packed;
  int packings = 0;
  for (const auto& [bound, generators] : ranked) {
    if (bound >= best_cost || packings == kPackings) break;
    if (!classes_packed.insert(multiplier_class(gpus, generators)).second) continue;
    report_work(progress, {"rdc: Circulant base generator sets packed", static_cast<double>(packings), kPackings,
                           WorkTotal::at_most});
    ++packings;
    const DegreeKReferencePacker packer(gpus, generators);
    Rng rng(seed);
    std::vector<ReferenceRound> rounds = packer.pack(all_offsets, rng);
    const int64_t cost = DegreeKReferencePacker::hop_sum(rounds);
    if (cost < best_cost) {
      best_cost = cost;
      best = CirculantBase{generators, std::move(rounds)};
    }
  }
  return best;
}

}  // namespace photonsim
