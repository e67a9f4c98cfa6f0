// Reachability: every query agrees with the transitive closure, on chains and
// on seeded random DAGs numbered out of topological order.
#include "core/spec/reachability.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

namespace photonsim {
namespace {

TEST(Reachability, ChainReachesEverythingAfter) {
  const uint32_t n = 50;
  std::vector<std::vector<uint32_t>> preds(n);
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0U);
  for (uint32_t v = 1; v < n; ++v) preds[v] = {v - 1};
  Reachability reach(preds, order);
  for (uint32_t a = 0; a < n; ++a) {
    for (uint32_t b = 0; b < n; ++b) EXPECT_EQ(reach.reaches(a, b), a < b) << a << " -> " << b;
  }
}

TEST(Reachability, AgreesWithTheClosureOnRandomDags) {
  std::mt19937 rng(32);
  for (int round = 0; round < 40; ++round) {
    const auto n = static_cast<uint32_t>(2 + rng() % 60);
    // Node k of a random topological order gets the id label[k].
    std::vector<uint32_t> label(n);
    std::iota(label.begin(), label.end(), 0U);
    std::shuffle(label.begin(), label.end(), rng);
    std::vector<std::vector<uint32_t>> preds(n);
    std::vector<std::vector<char>> closure(n, std::vector<char>(n, 0));  // closure[a][b]: b waits for a
    const double density = static_cast<double>(1 + rng() % 4) / (2.0 * n);
    std::bernoulli_distribution edge(density);
    for (uint32_t k = 0; k < n; ++k) {
      for (uint32_t j = 0; j < k; ++j) {
        if (!edge(rng)) continue;
        preds[label[k]].push_back(label[j]);
        closure[label[j]][label[k]] = 1;
        for (uint32_t a = 0; a < n; ++a) {
          if (closure[a][label[j]] != 0) closure[a][label[k]] = 1;
        }
      }
    }
    Reachability reach(preds, label);
    for (uint32_t a = 0; a < n; ++a) {
      for (uint32_t b = 0; b < n; ++b) {
        ASSERT_EQ(reach.reaches(a, b), closure[a][b] != 0) << "round " << round << ": " << a << " -> " << b;
      }
    }
  }
}

}  // namespace
}  // namespace photonsim
