#include "schedules/algorithms/butterfly.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

#include "schedules/model/block_sizes.h"

namespace photonsim {

int Butterfly::steps() const {
  int steps = 0;
  while ((1 << steps) < ranks_) ++steps;
  return steps;
}

std::vector<std::vector<std::vector<int>>> Butterfly::reach() const {
  const int steps = this->steps();
  if ((1 << steps) != ranks_)
    throw std::logic_error("butterfly over " + std::to_string(ranks_) + " ranks, not a power of two");
  std::vector<std::vector<std::vector<int>>> reach(static_cast<size_t>(steps) + 1,
                                                   std::vector<std::vector<int>>(static_cast<size_t>(ranks_)));
  for (int r = 0; r < ranks_; ++r) reach[static_cast<size_t>(steps)][static_cast<size_t>(r)] = {r};
  for (int s = steps - 1; s >= 0; --s) {
    const auto& later = reach[static_cast<size_t>(s) + 1];
    for (int r = 0; r < ranks_; ++r) {
      const int p = peer_(r, s);
      if (p < 0 || p >= ranks_ || p == r || peer_(p, s) != r) {
        throw std::logic_error("butterfly step " + std::to_string(s) + ": rank " + std::to_string(r) +
                               " has no proper peer (" + std::to_string(p) + ")");
      }
      const auto& mine = later[static_cast<size_t>(r)];
      const auto& theirs = later[static_cast<size_t>(p)];
      std::vector<int>& merged = reach[static_cast<size_t>(s)][static_cast<size_t>(r)];
      std::set_union(mine.begin(), mine.end(), theirs.begin(), theirs.end(), std::back_inserter(merged));
      // Halves that overlap would make a rank receive its own partial back.
      if (merged.size() != mine.size() + theirs.size()) {
        throw std::logic_error("butterfly step " + std::to_string(s) + ": ranks " + std::to_string(r) + " and " +
                               std::to_string(p) + " reach a rank twice");
      }
    }
  }
  return reach;
}

Transfer Butterfly::carry(const Placement& placement, int from, int to, const std::vector<int>& owners, TransferOp op) {
  Transfer t;
  t.src = placement.node_of_rank[static_cast<size_t>(from)];
  t.dst = placement.node_of_rank[static_cast<size_t>(to)];
  for (int owner : owners) {
    const auto& own = placement.blocks_of_rank[static_cast<size_t>(owner)];
    t.blocks.insert(t.blocks.end(), own.begin(), own.end());
  }
  std::sort(t.blocks.begin(), t.blocks.end());
  t.bytes = blocks_bytes(placement.message, placement.blocks, t.blocks);
  t.op = op;
  return t;
}

std::vector<std::vector<Transfer>> Butterfly::reduce_scatter(const Placement& placement) const {
  const auto reach = this->reach();
  std::vector<std::vector<Transfer>> steps;
  for (int s = 0; s < this->steps(); ++s) {
    std::vector<Transfer> step;
    for (int r = 0; r < ranks_; ++r) {
      const int p = peer_(r, s);
      step.push_back(
          carry(placement, r, p, reach[static_cast<size_t>(s) + 1][static_cast<size_t>(p)], TransferOp::reduce));
    }
    steps.push_back(std::move(step));
  }
  return steps;
}

std::vector<std::vector<Transfer>> Butterfly::all_gather(const Placement& placement) const {
  const auto reach = this->reach();
  std::vector<std::vector<Transfer>> steps;
  for (int s = this->steps() - 1; s >= 0; --s) {
    std::vector<Transfer> step;
    for (int r = 0; r < ranks_; ++r) {
      step.push_back(carry(placement, r, peer_(r, s), reach[static_cast<size_t>(s) + 1][static_cast<size_t>(r)],
                           TransferOp::copy));
    }
    steps.push_back(std::move(step));
  }
  return steps;
}

Butterfly::Placement Butterfly::one_block_per_node(int n, Bytes message) {
  Placement placement;
  placement.message = message;
  placement.blocks = static_cast<uint32_t>(n);
  for (int u = 0; u < n; ++u) {
    placement.node_of_rank.push_back(static_cast<Node>(u));
    placement.blocks_of_rank.push_back({static_cast<uint32_t>(u)});
  }
  return placement;
}

std::vector<std::vector<Transfer>> Butterfly::phases(const Placement& placement, Collective collective) const {
  std::vector<std::vector<Transfer>> steps;
  if (collective != Collective::allgather) steps = reduce_scatter(placement);
  if (collective != Collective::reducescatter) {
    for (auto& step : all_gather(placement)) steps.push_back(std::move(step));
  }
  return steps;
}

}  // namespace photonsim
