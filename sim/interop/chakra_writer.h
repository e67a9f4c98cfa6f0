#pragma once
// Contract: a synthesized schedule out as Chakra execution traces, one per
// rank (`photonsim synth CONFIG --out PREFIX --format chakra` writes
// PREFIX.0.et .. PREFIX.(n-1).et), so ASTRA-sim and other Chakra consumers
// run photonsim's schedules. Per rank, step by step: a step that
// reconfigures first holds a COMP_NODE "step<S>.reconfigure" of the
// schedule's predicted reconfiguration (duration_micros rounded up to whole
// microseconds, as Chakra counts; the exact picoseconds in the int64
// attribute duration_ps; bool attribute photonsim_reconfiguration true: it
// is the reconfiguration, not compute, so photonsim's reader never charges
// it beside the circuits it sets up, while ASTRA-sim runs it as time); then one
// COMM_SEND_NODE per transfer the rank sends (comm_src, comm_dst, comm_size,
// comm_tag = the step) and one COMM_RECV_NODE per transfer it receives
// (transfers of 0 bytes move nothing and are left out). A
// rank's nodes of step S depend on its nodes of the step before (the
// dataflow reading of the barrier; a step's receives on its reconfiguration
// too, so they are issued when its sends are). GlobalMetadata version 0.0.4;
// rank 0's also holds the schedule itself (bytes attribute
// photonsim_schedule: its binary .pb, schedules/model/schedule.proto), so
// photonsim reads the files back as that schedule, routes, ports and initial
// topology included (chakra_trace.h); other consumers skip the attribute.
// Ids 0, 1, ... per file; is_cpu_op false on every node. A transfer's
// multi-hop path is not written as nodes (a Chakra consumer routes a send
// itself).
#include <string>
#include <vector>

#include "schedules/model/schedule.h"

namespace photonsim {

// The attribute names photonsim writes and reads back.
inline constexpr const char* kChakraScheduleAttr = "photonsim_schedule";
inline constexpr const char* kChakraReconfigurationAttr = "photonsim_reconfiguration";

// Each rank's file, as bytes (rank r at [r]).
std::vector<std::string> chakra_traces_of(const Schedule& schedule);

}  // namespace photonsim
