#pragma once
// Contract: how closely `photonsim run --fidelity` simulates a schedule (a
// contract name: packet | packet_reference | chunk | analytical). The
// schedule is synthesized from the config as given in every mode; only its
// replay changes.
//   packet:     the packet-level engine with fabric.packet as configured,
//               moving trains (TrainNetwork): packet-exact;
//   packet_reference: the same, packet by packet (Network), the reference
//               the train engine must match field by field but for events;
//   chunk:      the same engine with one packet per chunk (fabric.packet =
//               chunk): far fewer events, pipelining inside a chunk is lost;
//   analytical: no simulation: every step takes its predicted time (the
//               synthesizer's own cost model), so measured = predicted.
#include <string>

#include "core/enum_names.h"
#include "schedules/model/schedule.h"
#include "sim/engine/run_result.h"

namespace photonsim {

enum class Fidelity { packet, chunk, analytical, packet_reference };
inline constexpr EnumName<Fidelity> kFidelityNames[] = {
    {Fidelity::packet, "packet"},
    {Fidelity::packet_reference, "packet_reference"},
    {Fidelity::chunk, "chunk"},
    {Fidelity::analytical, "analytical"}};

const char* to_string(Fidelity fidelity);
// Throws Error listing the valid names.
Fidelity parse_fidelity(const std::string& name);

// The analytical replay: steps back to back at their predicted times; bytes
// and transfers counted from the schedule; no packets or events. With
// reconfiguration failures in `failures` (checked against the schedule:
// check_reconfiguration_failures), step K's reconfiguration lasts its
// extra_delay longer: step K ends that much later, its reconfiguration part
// grows by it and every later step moves with it (one command per step, as
// the cost models charge it).
RunResult analytical_result(const Schedule& schedule, const FailureSpec& failures = {});

}  // namespace photonsim
