#pragma once
// Contract: what a planner says of itself, beside its code: its YAML name
// (synthesis.planner), one line on what it does, and its parameters with
// types and defaults (synthesis.planner as a map).
#include <string>
#include <vector>

#include "topology/parameter_spec.h"

namespace photonsim {

struct PlannerInfo {
  std::string name;
  std::string description;
  std::vector<ParameterSpec> parameters = {};
};

}  // namespace photonsim
