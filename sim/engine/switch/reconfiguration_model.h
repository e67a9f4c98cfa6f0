#pragma once
// Contract: how long one switch command keeps the ports it changes dark
// (fabric.reconfig_model; docs/model.md "What a run means"). A model is a pure
// function of the command: the nominal delay (fabric.reconfig_delay), the
// circuits it changes (each port re-aimed: its slot, its GPU, where it is to
// lead) and the fabric's size. It never sees time or traffic: when a command
// is issued is the run's, which ports change the CircuitPlan's. A new model
// is one class deriving this, one line in reconfiguration_models.cpp, and
// its test.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/time.h"
#include "sim/engine/switch/port_command.h"

namespace photonsim {

struct SwitchCommand {
  Time reconfig_delay;                 // fabric.reconfig_delay
  std::span<const PortCommand> ports;  // the ports it re-aims (none: from no circuits to none)
  size_t ports_per_gpu = 0;            // fabric.ports: port p of every GPU is on optical switch p
  size_t ports_total = 0;              // every port of the fabric: gpus x ports
  size_t ports_changed() const { return ports.size(); }
};

class ReconfigurationModel {
 public:
  virtual ~ReconfigurationModel() = default;
  // The dark time of one command; throws TimeOverflow past the time range.
  virtual Time dark_time(const SwitchCommand& command) const = 0;
};

// One parameter a model declares beside its class, read through the config
// schema by the parser of its kind: fabric.reconfig_model: {type: NAME, PARAM: VALUE}.
struct ReconfigurationParameter {
  std::string name;
  std::string kind;           // "time" (>= 0) or "integer" (>= 0)
  std::string default_value;  // as written in a config, e.g. "0ps"
  std::string doc;            // one phrase
};

struct ReconfigurationModelInfo {
  std::string name;         // the value of fabric.reconfig_model
  std::string description;  // one line, for photonsim list and docs/config.md
  std::vector<ReconfigurationParameter> parameters = {};
};

}  // namespace photonsim
