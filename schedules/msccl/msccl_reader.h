#pragma once
// Contract: reads an MSCCL XML algorithm (the format msccl-tools writes and
// NCCL's MSCCL runtime executes: <algo> of <gpu>s of thread blocks <tb> of
// <step>s) into an MscclProgram. Chunks are followed through every step, in
// an order the dependencies allow, so each send knows the blocks it carries:
// s, r, rcs, rrs, rrc, rrcs, cpy, re and nop are read; a received chunk
// later reduced locally (re) makes its transfer a reduction. Thread blocks
// run their steps in order; the k-th send of GPU u's thread block to v on
// channel c meets the k-th receive of v's thread block from u on c. A level's
// sends from u to v are one transfer per channel (channels are separate
// connections sharing the GPUs' ports). Collectives: allreduce (any
// nchunksperloop), allgather, reduce_scatter and alltoall (a multiple of
// ngpus: the chunks per GPU become block parts), broadcast (photonsim's own
// `root` attribute on <algo>), custom (block g*C + c starts in GPU g's input
// chunk c; any chunks may be reduced together). minBytes/maxBytes are kept for the choice
// among several files (msccl_algorithm.h); proto is not read (photonsim
// models no protocol).
// Every fault is an Error "SOURCE:LINE: <gpu id=..> <tb id=..> <step s=..>:
// ..." naming the element and attribute.
#include <string>
#include <string_view>

#include "schedules/msccl/msccl_program.h"

namespace photonsim {

MscclProgram read_msccl_xml(std::string_view text, const std::string& source);

}  // namespace photonsim
