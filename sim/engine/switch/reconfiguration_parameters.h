#pragma once
// Contract: the values of one reconfiguration model's declared parameters
// (ReconfigurationModelInfo::parameters): those given in fabric.reconfig_params
// (text, as the config schema's parsers wrote them back) or else the declared
// defaults. Construction refuses a name the model does not declare, listing
// the valid ones; an accessor refuses a value that does not parse.
#include <cstdint>
#include <map>
#include <string>

#include "core/time.h"
#include "sim/engine/switch/reconfiguration_model.h"

namespace photonsim {

class ReconfigurationParameters {
 public:
  ReconfigurationParameters(ReconfigurationModelInfo info, std::map<std::string, std::string> given);

  Time time(const std::string& name) const;

 private:
  std::string value(const std::string& name) const;

  ReconfigurationModelInfo info_;
  std::map<std::string, std::string> given_;
};

}  // namespace photonsim
