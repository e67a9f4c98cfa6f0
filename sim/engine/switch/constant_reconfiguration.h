#pragma once
// Contract: every command is dark for fabric.reconfig_delay, however many
// ports it changes: the papers' model (R, delta, r, alpha_r per change).
#include "sim/engine/switch/reconfiguration_model.h"

namespace photonsim {

class ConstantReconfiguration : public ReconfigurationModel {
 public:
  static ReconfigurationModelInfo info() {
    return {"constant", "every command is dark for fabric.reconfig_delay, whatever it changes (the papers' model)"};
  }
  Time dark_time(const SwitchCommand& command) const override { return command.reconfig_delay; }
};

}  // namespace photonsim
