#pragma once
// Contract: the reconfiguration models by their YAML name
// (fabric.reconfig_model) and their parameters (fabric.reconfig_params). An
// unknown name or parameter is an Error listing the valid ones.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/switch/reconfiguration_model.h"
#include "sim/engine/switch/reconfiguration_parameters.h"

namespace photonsim {

std::vector<ReconfigurationModelInfo> reconfiguration_models();
std::unique_ptr<ReconfigurationModel> make_reconfiguration_model(const std::string& name,
                                                                 const std::map<std::string, std::string>& params = {});

}  // namespace photonsim
