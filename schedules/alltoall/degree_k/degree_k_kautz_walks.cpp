#include "schedules/alltoall/degree_k/degree_k_kautz_walks.h"

#include <algorithm>
#include <cstdint>

#include "core/error.h"
#include "schedules/alltoall/round_packer.h"

namespace photonsim {

namespace {

// The Imase-Itoh graph's circuits x -> (-k*x - a) mod n by (x, a - 1), with
// each circuit's index among its head's in-circuits.
class KautzWalker {
 public:
  KautzWalker(int gpus, int degree)
      : n_(gpus), k_(degree), head_(static_cast<size_t>(gpus) * static_cast<size_t>(degree)), in_port_(head_.size()) {
    std::vector<int> seen(static_cast<size_t>(n_), 0);
    for (int x = 0; x < n_; ++x) {
      for (int a = 1; a <= k_; ++a) {
        const int64_t y = ((-int64_t{k_} * x - a) % n_ + n_) % n_;
        const size_t c = circuit(x, a - 1);
        head_[c] = static_cast<int>(y);
        in_port_[c] = seen[static_cast<size_t>(y)]++;
      }
    }
  }

  // The walk from x leaving on digit `first` in round `round` (digits of the
  // round in base k, lowest first); false when it crosses a dark self-loop.
  bool walk(int x, int first, uint64_t round, int hops, std::vector<Node>& nodes) const {
    nodes.clear();
    nodes.push_back(static_cast<Node>(x));
    int digit = first;
    for (int h = 0; h < hops; ++h) {
      const size_t c = circuit(x, digit);
      const int y = head_[c];
      if (y == x) return false;
      nodes.push_back(static_cast<Node>(y));
      const auto shift = static_cast<int>(round % static_cast<uint64_t>(k_));
      round /= static_cast<uint64_t>(k_);
      digit = (in_port_[c] + shift) % k_;
      x = y;
    }
    return true;
  }

 private:
  size_t circuit(int x, int digit) const {
    return static_cast<size_t>(x) * static_cast<size_t>(k_) + static_cast<size_t>(digit);
  }

  int n_;
  int k_;
  std::vector<int> head_;
  std::vector<int> in_port_;
};

// A pair's chosen walk: its round and first digit (the walk is rebuilt when placed).
struct Choice {
  uint64_t round = 0;
  int first = 0;
  uint32_t seen = 0;  // surviving walks so far (reservoir sampling)
};

}  // namespace

std::vector<StrategyRound> kautz_walk_rounds(const Topology& kautz, int degree, const AllShortestPaths& shortest,
                                             const std::vector<bool>& wanted, int topology_index, Rng& rng) {
  const int n = kautz.gpus();
  const auto un = static_cast<size_t>(n);
  int longest = 0;
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    for (Node d = 0; d < static_cast<Node>(n); ++d) {
      if (!wanted[s * un + d]) continue;
      const int h = shortest.hops(s, d);
      if (h <= 0) throw Error("kautz walks: no path from node " + std::to_string(s) + " to node " + std::to_string(d));
      longest = std::max(longest, h);
    }
  }
  const KautzWalker walker(n, degree);
  RoundPacker packer(kautz);
  std::vector<Node> nodes;
  std::vector<Choice> choice(un * un);
  uint64_t rounds = 1;  // k^(h-1)
  for (int h = 1; h <= longest; ++h, rounds *= static_cast<uint64_t>(degree)) {
    std::vector<size_t> pairs;
    for (uint64_t c = 0; c < rounds; ++c) {
      for (int x = 0; x < n; ++x) {
        for (int first = 0; first < degree; ++first) {
          if (!walker.walk(x, first, c, h, nodes)) continue;
          const size_t pair = nodes.front() * un + nodes.back();
          if (!wanted[pair] || shortest.hops(nodes.front(), nodes.back()) != h) continue;
          Choice& ch = choice[pair];
          if (ch.seen == 0) pairs.push_back(pair);
          ++ch.seen;
          if (rng.uniform(ch.seen) == 0) {
            ch.round = c;
            ch.first = first;
          }
        }
      }
    }
    std::sort(pairs.begin(), pairs.end(), [&](size_t a, size_t b) {
      return choice[a].round != choice[b].round ? choice[a].round < choice[b].round : a < b;
    });
    for (size_t i = 0; i < pairs.size();) {
      const size_t first_round = packer.round_count();
      const uint64_t c = choice[pairs[i]].round;
      for (; i < pairs.size() && choice[pairs[i]].round == c; ++i) {
        walker.walk(static_cast<int>(pairs[i] / un), choice[pairs[i]].first, c, h, nodes);
        packer.place(Bytes(1), {nodes}, first_round);
      }
    }
  }
  packer.merge_rounds();
  return packer.rounds(topology_index);
}

}  // namespace photonsim
