#pragma once
// Contract: collects one step of a store-and-forward all-to-all. Every node
// owns `lanes` outgoing transfers (one per direction or digit value); add()
// puts a block into the transfer of (src, lane) bound for dst, and take()
// returns the non-empty transfers in (src, lane) order, each `message` bytes
// per block it carries (the all-to-all numbering of Schedule::blocks()).
#include <cstdint>
#include <functional>
#include <vector>

#include "core/units.h"
#include "schedules/model/transfer.h"

namespace photonsim {

class AlltoallStepBuilder {
 public:
  AlltoallStepBuilder(uint32_t gpus, uint32_t lanes);

  // Every block of one (src, lane) must go to the same dst.
  void add(Node src, uint32_t lane, Node dst, uint32_t block);
  std::vector<Transfer> take(Bytes message);
  // Same with each block's own size.
  std::vector<Transfer> take(const std::function<Bytes(uint32_t)>& size_of);

 private:
  uint32_t lanes_;
  std::vector<Transfer> slots_;  // index src * lanes + lane
};

}  // namespace photonsim
