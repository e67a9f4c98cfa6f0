#pragma once
// Contract: reads an MSCCL++ execution plan (the JSON that mscclpp.language
// writes and MSCCL++'s executor runs: gpus of thread blocks of ops over
// memory and port channels) into an MscclProgram, as the XML reader does for
// MSCCL. The plan is run as the executor would, one thread block's ops in
// order, each op waiting for what it waits for on a GPU: wait/rlxwait for a
// signal on its channel (the k-th signal u sends on its channel with tag t
// to v meets v's k-th wait on its channel with tag t to u; tags number the
// connections between two GPUs, memory channels first, as the executor
// makes them), sem_acquire for a sem_release, barrier for its thread blocks,
// and an LL packet read for the packets it reads. Data ops (put, pws, pwsf,
// get, copy, re, res, rre, rres and the packet ops ppkt, rppkt, cpkt, upkt,
// respkt, repkt, recpkt, recspkt) move chunks: a remote write is a transfer
// from the GPU to the buffer's owner, a remote read one from the owner; a
// reduction's remote reads and the received copies it adds are reductions.
// An op's level is the longest chain of transfers whose data it waits for,
// through its reads and the signals, semaphores and barriers before it.
// A pipeline's inner ops run once over the whole chunk (its unit-by-unit
// overlap is not modelled); a thread-block group's slices move their chunk
// once, with the first slice. NVLS ops (glres, gstore, gstorepkt) and
// switch-channel buffers are refused: photonsim's fabrics have no
// in-switch reduction or multicast. protocol, buffer_alignment,
// reuse_resources, use_double_scratch_buffer and num_threads_per_block are
// not read (photonsim models no protocol). Collectives: allreduce,
// allgather, reducescatter, alltoall, and custom (also sendrecv and test):
// block g*C + c starts in GPU g's input chunk c. min_message_size and
// max_message_size are kept for the choice among several files.
// Every fault is an Error "SOURCE:LINE: gpus[g].threadblocks[t].ops[k]
// (name): ..." naming the member.
#include <string>
#include <string_view>

#include "schedules/msccl/msccl_program.h"

namespace photonsim {

MscclProgram read_mscclpp_plan(std::string_view text, const std::string& source);

}  // namespace photonsim
