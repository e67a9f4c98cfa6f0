#pragma once
// Contract: whether each reconfiguration failure of fabric.failures names a
// reconfiguration the schedule has (docs/model.md "Failures"). Throws Error,
// its message starting "fabric.failures[i] (reconfiguration, step K): ",
// when step K is past the schedule's steps (the message gives their number),
// when no reconfiguration precedes step K (its circuits are those in place:
// Schedule::reconfigures_before), or - given the run's CircuitPlan - when
// its reconfiguration changes no port (fabric.reconfiguration: changed, from
// no circuits to none), so nothing is dark for extra_delay to lengthen.
#include "core/spec/fabric_spec.h"
#include "schedules/model/schedule.h"
#include "sim/engine/switch/circuit_plan.h"

namespace photonsim {

void check_reconfiguration_failures(const Schedule& schedule, const FabricSpec& fabric,
                                    const CircuitPlan* plan = nullptr);

}  // namespace photonsim
