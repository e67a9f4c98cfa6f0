#pragma once
// Contract: what an MSCCL XML algorithm means to photonsim, before any
// message size: the collective on `gpus` GPUs, its chunks as photonsim
// blocks (numbered as Schedule::blocks() documents; an all-to-all's chunk
// factor becomes block_parts), and the transfers by dependency level: a
// transfer's level is the longest chain of received data (and of explicit
// dependencies on sends) before its send can start, so transfers of one level
// never wait for each other. Transfers carry blocks and their operation, no
// byte counts (the algorithm sizes them from workload.message).
#include <cstdint>
#include <string>
#include <vector>

#include "core/spec/workload_spec.h"
#include "schedules/model/transfer.h"

namespace photonsim {

struct MscclProgram {
  std::string name;
  Collective collective = Collective::allreduce;
  int gpus = 0;
  int root = 0;
  uint32_t blocks = 0;
  uint32_t block_parts = 1;
  // coll="custom": no collective's post-condition holds it; run under the
  // workload's collective, its blocks each GPU's nchunksperloop input chunks.
  bool custom = false;
  // The sizes MSCCL runs it for: minBytes <= nBytes <= maxBytes, nBytes the
  // whole buffer (count x type size x sizeMultiplier); max 0: no bound.
  int64_t min_bytes = 0;
  int64_t max_bytes = 0;
  std::vector<std::vector<Transfer>> levels;
};

}  // namespace photonsim
