#pragma once
// Contract: writes a Schedule as an MSCCL XML algorithm (the old format that
// msccl-tools writes and NCCL's MSCCL runtime reads): one channel, one
// thread block per peer, steps in schedule order with their dependencies, so
// that read_msccl_xml gives back the same transfers in the same steps. Every
// block lives at one chunk per GPU (AllReduce, reduce-scatter, broadcast: in
// place in the input buffer; all-gather: in place in the output buffer;
// all-to-all: input at the source, output at the destination, scratch on the
// way), a copy is received with `r`, a reduction with `rrc`. Dependencies:
// a send waits for the receives that wrote what it reads and for one step of
// its GPU in the schedule's previous step (MSCCL has no barrier; this keeps
// the step order wherever the GPU took part in the previous step); a receive
// waits for the sends that still read the chunk it overwrites and for the
// previous write. Extra dependencies become `nop` steps. Routes and
// topologies are the fabric's and are not written. Throws Error for a
// schedule MSCCL cannot express (flows of different sizes, a transfer
// carrying no blocks).
#include <string>

#include "schedules/model/schedule.h"

namespace photonsim {

std::string write_msccl_xml(const Schedule& schedule);

}  // namespace photonsim
