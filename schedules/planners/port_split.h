#pragma once
// Contract: PCCL Section 4.2's round splitting, shared by the planners that
// put a step on its own circuits. split_to_ports() packs a step's transfers,
// first-fit in input order, into consecutive groups whose circuits (one per
// distinct pair, plus its reverse when fabric.circuits is bidirectional) fit
// fabric.ports: directed, out- and in-degree <= ports; bidirectional, circuits
// per GPU <= ports. Transfers of one pair stay in one group. A step that
// already fits comes back as one group; an empty step as no group.
#include <vector>

#include "core/spec/fabric_spec.h"
#include "schedules/model/transfer.h"

namespace photonsim {

std::vector<std::vector<Transfer>> split_to_ports(const std::vector<Transfer>& transfers, const FabricSpec& fabric);

}  // namespace photonsim
