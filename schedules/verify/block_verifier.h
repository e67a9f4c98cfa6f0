#pragma once
// Contract: proves a schedule correct symbolically, block by block, before
// any simulation. Steps are replayed in order with barrier semantics: every
// transfer of a step reads what its sender held at the start of the step, and
// what it carries is usable from the next step on. A node can only send a
// block it holds (or a partial sum it has computed). Post-conditions, with
// the block numbering of Schedule::blocks():
//   all-to-all      block src*n+dst ends at dst;
//   all-gather,
//   broadcast       every node ends with every block;
//   reduce-scatter  node b ends with block b reduced over every input exactly once;
//   AllReduce       every node ends with every block reduced over every input exactly once
//                   (any number of blocks; all-gather and reduce-scatter have one per node).
// A reduction that adds an input twice is a violation the moment it happens.
// Transfer sizes must match the blocks they carry (schedules/model/block_sizes.h;
// all-to-all blocks are `message` bytes each). The first violation is
// reported with its step, node and block; nothing is thrown for a wrong
// schedule. A custom collective (MSCCL coll="custom") is not replayed: it
// has no post-condition, and Verification::not_proven says so.
#include <cstdint>
#include <optional>
#include <string>

#include "schedules/model/schedule.h"

namespace photonsim {

struct Violation {
  size_t step = 0;  // == number of steps for a post-condition failure
  Node node = 0;
  uint32_t block = 0;
  std::string what;
  std::string describe() const;  // "step 3, node 5, block 12: ..."
};

struct Verification {
  std::optional<Violation> violation;
  // Set when nothing could be proven: a custom collective (Schedule::custom)
  // has no post-condition. ok() then holds; callers say so.
  std::optional<std::string> not_proven;
  uint64_t transfers = 0;
  uint64_t block_moves = 0;  // (transfer, block) pairs replayed
  bool ok() const { return !violation.has_value(); }
};

Verification verify_schedule(const Schedule& schedule);
// The bytes verify_schedule's state takes (a bitset of blocks per node, or of
// contributors per block per node when reducing), from the schedule's claimed
// size alone: checked before verifying a file that may claim 4,096 GPUs.
uint64_t verifier_memory_estimate(const Schedule& schedule);

}  // namespace photonsim
