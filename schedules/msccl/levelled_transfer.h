#pragma once
// Contract: a transfer an MSCCL or MSCCL++ program makes, with its dependency
// level (the longest chain of transfers whose data it waits for) and the
// connection it moves on. by_level() groups them into MscclProgram levels:
// one transfer per (sender, receiver, connection, operation) and level, its
// blocks in the order sent (connections are separate, so their data moves on
// independently and shares the ports); empty levels are dropped.
#include <cstdint>
#include <vector>

#include "schedules/model/transfer.h"

namespace photonsim {

struct LevelledTransfer {
  int64_t level = 0;
  int connection = 0;
  Transfer transfer;
};

std::vector<std::vector<Transfer>> by_level(const std::vector<LevelledTransfer>& transfers);

}  // namespace photonsim
