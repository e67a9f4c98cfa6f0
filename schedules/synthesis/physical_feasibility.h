#pragma once
// Contract: the physical layer's say over schedules. physical_layer_of()
// gives the layer one synthesis shares (null without fabric.physical);
// unrealised_step() names the first configuration of a schedule (its
// initial topology, then its steps' in order) that the hardware cannot
// route, with the layer's reason, or nothing when all exist.
#include <memory>
#include <optional>
#include <string>

#include "core/spec/fabric_spec.h"
#include "schedules/model/schedule.h"
#include "topology/physical/physical_layer.h"

namespace photonsim {

std::shared_ptr<const PhysicalLayer> physical_layer_of(const FabricSpec& fabric);
std::optional<std::string> unrealised_step(const Schedule& schedule, const PhysicalLayer& physical);

}  // namespace photonsim
