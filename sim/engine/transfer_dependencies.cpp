#include "sim/engine/transfer_dependencies.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace photonsim {

TransferDependencies::TransferDependencies(const Schedule& schedule, bool with_waits) {
  const auto& steps = schedule.steps();
  uint64_t total = 0;
  for (const Step& step : steps) {
    step_first_.push_back(static_cast<uint32_t>(total));
    total += step.transfers.size();
  }
  if (total >= UINT32_MAX) throw std::length_error("more than 2^32 transfers in one schedule");
  step_first_.push_back(static_cast<uint32_t>(total));
  step_of_.reserve(total);
  if (!with_waits) {
    for (size_t s = 0; s < steps.size(); ++s) {
      step_of_.insert(step_of_.end(), steps[s].transfers.size(), static_cast<uint32_t>(s));
    }
    return;
  }
  offsets_.reserve(total + 1);
  offsets_.push_back(0);

  // (node, block) -> the transfers that delivered the block there so far;
  // per node, every transfer into it (for transfers that name no blocks).
  std::unordered_map<uint64_t, std::vector<uint32_t>> delivered_block;
  std::vector<std::vector<uint32_t>> delivered_to(static_cast<size_t>(schedule.gpus()));
  const auto key = [&](Node node, uint32_t block) { return static_cast<uint64_t>(node) << 32 | block; };
  std::vector<uint32_t> waits;
  for (size_t s = 0; s < steps.size(); ++s) {
    for (const Transfer& t : steps[s].transfers) {
      step_of_.push_back(static_cast<uint32_t>(s));
      waits.clear();
      if (t.blocks.empty()) {
        waits = delivered_to[t.src];
      } else {
        for (uint32_t b : t.blocks) {
          auto it = delivered_block.find(key(t.src, b));
          if (it != delivered_block.end()) waits.insert(waits.end(), it->second.begin(), it->second.end());
        }
        std::sort(waits.begin(), waits.end());
        waits.erase(std::unique(waits.begin(), waits.end()), waits.end());
      }
      waits_.insert(waits_.end(), waits.begin(), waits.end());
      offsets_.push_back(waits_.size());
    }
    // What this step delivered is usable from the next step on.
    for (size_t i = 0; i < steps[s].transfers.size(); ++i) {
      const Transfer& t = steps[s].transfers[i];
      const uint32_t id = step_first_[s] + static_cast<uint32_t>(i);
      delivered_to[t.dst].push_back(id);
      for (uint32_t b : t.blocks) delivered_block[key(t.dst, b)].push_back(id);
    }
  }
}

}  // namespace photonsim
