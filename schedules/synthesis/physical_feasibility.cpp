#include "schedules/synthesis/physical_feasibility.h"

#include <vector>

namespace photonsim {

std::shared_ptr<const PhysicalLayer> physical_layer_of(const FabricSpec& fabric) {
  if (!fabric.physical) return nullptr;
  return std::make_shared<const PhysicalLayer>(*fabric.physical, fabric);
}

std::optional<std::string> unrealised_step(const Schedule& schedule, const PhysicalLayer& physical) {
  const auto& topologies = schedule.topologies();
  std::vector<bool> checked(topologies.size(), false);
  const auto check = [&](int index, const std::string& what) -> std::optional<std::string> {
    if (index < 0 || checked[static_cast<size_t>(index)]) return std::nullopt;
    checked[static_cast<size_t>(index)] = true;
    const Topology& t = topologies[static_cast<size_t>(index)];
    if (auto why = physical.why_not(t)) return what + " (" + t.name() + ") does not exist on fabric.physical: " + *why;
    return std::nullopt;
  };
  if (auto why = check(schedule.initial_topology(), "the initial configuration")) return why;
  for (size_t s = 0; s < schedule.steps().size(); ++s) {
    if (auto why = check(schedule.steps()[s].topology, "step " + std::to_string(s) + "'s configuration")) return why;
  }
  return std::nullopt;
}

}  // namespace photonsim
