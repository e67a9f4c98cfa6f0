#include "schedules/alltoall/round_packer.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace photonsim {

RoundPacker::RoundPacker(const Topology& topology, FlowPaths kept)
    : topology_(topology), kept_(kept), offsets_(topology.out_offsets()), circuits_(topology.edges().size()) {
  if (kept == FlowPaths::implicit_walks && !topology.one_circuit_out_of_every_gpu()) {
    throw Error("round packer: implicit paths need one circuit out of every GPU, topology '" + topology.name() +
                "' has " + std::to_string(topology.edges().size()) + " circuits on " + std::to_string(topology.gpus()) +
                " GPUs");
  }
}

std::pair<uint32_t, uint32_t> RoundPacker::slots(Node u, Node v) const {
  const auto& edges = topology_.edges();
  const auto first = edges.begin() + offsets_[u];
  const auto last = edges.begin() + offsets_[u + 1];
  const auto range = std::equal_range(first, last, Edge{u, v});
  return {static_cast<uint32_t>(range.first - edges.begin()), static_cast<uint32_t>(range.second - edges.begin())};
}

void RoundPacker::set(Round& r, size_t bit) {
  if (bit / 64 >= r.used.size()) r.used.resize(bit / 64 + 1, 0);
  r.used[bit / 64] |= uint64_t{1} << (bit % 64);
}

bool RoundPacker::fits(const Round& round, const std::vector<Node>& path, std::vector<size_t>& bits) const {
  bits.clear();
  for (size_t h = 0; h + 1 < path.size(); ++h) {
    const auto [first, last] = slots(path[h], path[h + 1]);
    if (first == last) {
      throw Error("round packer: " + std::to_string(path[h]) + " -> " + std::to_string(path[h + 1]) +
                  " is not a circuit of topology '" + topology_.name() + "'");
    }
    // Bits of different hops differ (h * circuits + c, c < circuits), so a
    // path never meets its own bits: only the round's need testing.
    bool free_slot = false;
    for (uint32_t c = first; c < last && !free_slot; ++c) {
      const size_t bit = h * circuits_ + c;
      if (!test(round, bit)) {
        bits.push_back(bit);
        free_slot = true;
      }
    }
    if (!free_slot) return false;
  }
  return true;
}

size_t RoundPacker::place(Bytes bytes, const std::vector<std::vector<Node>>& paths, size_t first_round) {
  if (paths.empty()) throw Error("round packer: a flow without a path");
  std::vector<size_t> bits;
  for (size_t r = first_round;; ++r) {
    if (r == rounds_.size()) rounds_.push_back(Round{});
    for (const std::vector<Node>& path : paths) {
      if (fits(rounds_[r], path, bits)) {
        for (size_t bit : bits) set(rounds_[r], bit);
        const int hops = static_cast<int>(path.size()) - 1;
        rounds_[r].flows.push_back(kept_ == FlowPaths::implicit_walks
                                       ? implicit_path_flow(path.front(), path.back(), hops, bytes)
                                       : single_path_flow(path, bytes));
        rounds_[r].hops = std::max(rounds_[r].hops, hops);
        return r;
      }
    }
  }
}

void RoundPacker::merge_rounds() {
  for (size_t later = 1; later < rounds_.size(); ++later) {
    Round& donor = rounds_[later];
    if (donor.flows.empty()) continue;
    for (size_t earlier = 0; earlier < later; ++earlier) {
      Round& host = rounds_[earlier];
      if (host.flows.empty()) continue;
      bool clash = false;
      for (size_t w = 0; w < std::min(host.used.size(), donor.used.size()) && !clash; ++w) {
        clash = (host.used[w] & donor.used[w]) != 0;
      }
      if (clash) continue;
      if (host.used.size() < donor.used.size()) host.used.resize(donor.used.size(), 0);
      for (size_t w = 0; w < donor.used.size(); ++w) host.used[w] |= donor.used[w];
      for (StrategyFlow& f : donor.flows) host.flows.push_back(std::move(f));
      host.hops = std::max(host.hops, donor.hops);
      donor = Round{};
      break;
    }
  }
}

std::vector<size_t> RoundPacker::kept_in_order() const {
  std::vector<size_t> kept;
  for (size_t r = 0; r < rounds_.size(); ++r) {
    if (!rounds_[r].flows.empty()) kept.push_back(r);
  }
  std::stable_sort(kept.begin(), kept.end(), [&](size_t a, size_t b) { return rounds_[a].hops < rounds_[b].hops; });
  return kept;
}

std::vector<StrategyRound> RoundPacker::rounds(int topology_index) const& {
  std::vector<StrategyRound> out;
  for (size_t r : kept_in_order()) out.push_back(StrategyRound{topology_index, rounds_[r].flows});
  return out;
}

std::vector<StrategyRound> RoundPacker::rounds(int topology_index) && {
  std::vector<StrategyRound> out;
  for (size_t r : kept_in_order()) out.push_back(StrategyRound{topology_index, std::move(rounds_[r].flows)});
  return out;
}

int64_t RoundPacker::hop_sum() const {
  int64_t sum = 0;
  for (const Round& r : rounds_) sum += r.flows.empty() ? 0 : r.hops;
  return sum;
}

}  // namespace photonsim
