#pragma once
// Contract: one controller re-aims the optical switches a command touches one
// after another (port p of every GPU is on switch p): the command is dark for
// fabric.reconfig_delay per switch it touches (at least one), plus `per_port`
// per port it changes. With one port per GPU and per_port 0 it is `constant`.
#include "sim/engine/switch/reconfiguration_model.h"
#include "sim/engine/switch/reconfiguration_parameters.h"

namespace photonsim {

class SequentialReconfiguration : public ReconfigurationModel {
 public:
  explicit SequentialReconfiguration(const ReconfigurationParameters& parameters)
      : per_port_(parameters.time("per_port")) {}

  static ReconfigurationModelInfo info() {
    return {"sequential",
            "the switches a command touches are re-aimed one after another: reconfig_delay per switch touched "
            "(at least 1), plus per_port per port changed",
            {{"per_port", "time", "0ps", "dark time added per port the command changes"}}};
  }

  Time dark_time(const SwitchCommand& command) const override;

 private:
  Time per_port_;
};

}  // namespace photonsim
