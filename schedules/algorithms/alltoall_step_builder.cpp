#include "schedules/algorithms/alltoall_step_builder.h"

#include <stdexcept>
#include <string>

namespace photonsim {

AlltoallStepBuilder::AlltoallStepBuilder(uint32_t gpus, uint32_t lanes)
    : lanes_(lanes), slots_(static_cast<size_t>(gpus) * lanes) {}

void AlltoallStepBuilder::add(Node src, uint32_t lane, Node dst, uint32_t block) {
  Transfer& t = slots_.at(static_cast<size_t>(src) * lanes_ + lane);
  if (t.blocks.empty()) {
    t.src = src;
    t.dst = dst;
  } else if (t.dst != dst) {
    // A bug in the calling algorithm, not a user error.
    throw std::logic_error("AlltoallStepBuilder: lane " + std::to_string(lane) + " of node " + std::to_string(src) +
                           " sends to both " + std::to_string(t.dst) + " and " + std::to_string(dst));
  }
  t.blocks.push_back(block);
}

std::vector<Transfer> AlltoallStepBuilder::take(const std::function<Bytes(uint32_t)>& size_of) {
  std::vector<Transfer> step;
  for (Transfer& t : slots_) {
    if (t.blocks.empty()) continue;
    t.bytes = Bytes(0);
    for (uint32_t b : t.blocks) t.bytes += size_of(b);
    step.push_back(std::move(t));
  }
  slots_.clear();
  return step;
}

std::vector<Transfer> AlltoallStepBuilder::take(Bytes message) {
  std::vector<Transfer> step;
  for (Transfer& t : slots_) {
    if (t.blocks.empty()) continue;
    t.bytes = message * static_cast<int64_t>(t.blocks.size());
    step.push_back(std::move(t));
  }
  slots_.clear();
  return step;
}

}  // namespace photonsim
