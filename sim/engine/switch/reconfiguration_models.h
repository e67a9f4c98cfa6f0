#pragma once
// Contract: the reconfiguration models by their YAML name
// (fabric.reconfig_model). An unknown name is an Error listing the valid ones.
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/switch/reconfiguration_model.h"

namespace photonsim {

std::vector<ReconfigurationModelInfo> reconfiguration_models();
std::unique_ptr<ReconfigurationModel> make_reconfiguration_model(const std::string& name);

}  // namespace photonsim
