#pragma once
// Contract: which earlier transfers each transfer of a schedule waits for
// under dataflow execution, from the verifier's block semantics: a transfer
// leaves node u carrying blocks B once every transfer of an earlier step that
// delivered any block of B to u has been delivered (for a reduction, u's
// partial sum must hold every contribution the barrier run would have added;
// for a copy, waiting for every delivery is the same as waiting for the
// first when blocks arrive once, as in every shipped algorithm). A transfer
// that names no blocks waits for every earlier transfer into its sender (the
// per-node rule), since nothing says what it carries. Transfers of one step
// never wait for each other (the barrier semantics the schedule was proved
// under). Transfers are numbered in step order, then in their step's order.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "schedules/model/schedule.h"

namespace photonsim {

class TransferDependencies {
 public:
  // `with_waits` false: the numbering only (a barrier run needs no more, and
  // the waits of a large schedule cost far more than its run); waits_for()
  // then throws std::logic_error.
  explicit TransferDependencies(const Schedule& schedule, bool with_waits = true);

  size_t transfers() const { return step_of_.size(); }
  // The first transfer's number in step s (s = steps: the total).
  uint32_t first_of_step(size_t step) const { return step_first_[step]; }
  uint32_t step_of(uint32_t transfer) const { return step_of_[transfer]; }
  // The transfers `transfer` waits for, ascending, without repeats.
  std::span<const uint32_t> waits_for(uint32_t transfer) const {
    if (offsets_.empty()) throw std::logic_error("TransferDependencies: built without the waits");
    return {waits_.data() + offsets_[transfer], waits_.data() + offsets_[transfer + 1]};
  }

 private:
  std::vector<uint32_t> step_first_;
  std::vector<uint32_t> step_of_;
  std::vector<uint64_t> offsets_;  // CSR over waits_
  std::vector<uint32_t> waits_;
};

}  // namespace photonsim
