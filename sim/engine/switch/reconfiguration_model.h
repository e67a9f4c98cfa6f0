#pragma once
// Contract: how long one switch command keeps the ports it changes dark
// (fabric.reconfig_model; docs/model.md "What a run means"). A model is a pure
// function of the command: the nominal delay (fabric.reconfig_delay), how
// many ports the command changes and how many the fabric has. It never sees
// time or traffic: when a command is issued is the run's, which ports change
// the CircuitPlan's. A new model is one class deriving this, one line in
// reconfiguration_models.cpp, and its test.
#include <cstddef>
#include <string>

#include "core/time.h"

namespace photonsim {

struct SwitchCommandSize {
  Time reconfig_delay;       // fabric.reconfig_delay
  size_t ports_changed = 0;  // ports this command re-aims (0: from no circuits to none)
  size_t ports_total = 0;    // every port of the fabric: gpus x ports
};

class ReconfigurationModel {
 public:
  virtual ~ReconfigurationModel() = default;
  // The dark time of one command; throws TimeOverflow past the time range.
  virtual Time dark_time(const SwitchCommandSize& command) const = 0;
};

struct ReconfigurationModelInfo {
  std::string name;         // the value of fabric.reconfig_model
  std::string description;  // one line, for photonsim list and docs/config.md
};

}  // namespace photonsim
