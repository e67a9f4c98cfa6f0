#pragma once
// Contract: what a collective algorithm produces before any topology is
// chosen: the transfers of each step. `independent_steps` says no transfer
// depends on data received in an earlier step (direct all-to-all), so a
// planner may regroup transfers into rounds freely.
#include <cstdint>
#include <vector>

#include "schedules/model/transfer.h"

namespace photonsim {

struct StepPattern {
  std::vector<std::vector<Transfer>> steps;
  bool independent_steps = false;
  // How many data blocks the collective is cut into (see Schedule::blocks()).
  uint32_t blocks = 0;
  // Per-block bytes when blocks differ (ScheduleParts::block_sizes); empty = uniform.
  std::vector<Bytes> block_sizes;
  uint32_t block_parts = 1;  // ScheduleParts::block_parts
  bool custom = false;       // ScheduleParts::custom
};

}  // namespace photonsim
