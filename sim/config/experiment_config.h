#pragma once
// Contract: one experiment, fully validated: every field below is either
// given in the YAML (or a --set override) or holds its documented default.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

#include "core/output_guard.h"
#include "core/spec/experiment_spec.h"
#include "schedules/model/schedule.h"

namespace photonsim {

// The spec (core/spec/experiment_spec.h) and what only loading knows.
struct ExperimentConfig : ExperimentSpec {
  std::map<std::string, std::string> node_locations;  // graph node name -> "file:line"
  std::vector<std::string> warnings;                  // what was read but is not simulated (Chakra node types)
  std::string output_dir;                             // empty = do not write files
  // Where each entry of fabric.failures was written ("file:line" or "--set
  // ..."), by index: for the engine's messages about it.
  std::vector<std::string> failure_locations;
  // Every file the experiment reads: the config itself (load_config), a graph
  // file, Chakra traces, an algorithm's or a topology's file; outputs are
  // checked against them before anything is written (refuse_outputs_over_inputs).
  std::vector<NamedPath> inputs;
  // Where each key read was set ("file:line" or "--set key=value"), so errors
  // found after loading (an unknown algorithm name, say) can point at it.
  std::map<std::string, std::string> key_locations;
  // The YAML as read with every --set applied (defaults not filled in): what
  // an --out folder keeps as config.yaml.
  std::string resolved_yaml;
  // workload.graph: {chakra: PREFIX} naming photonsim's own export of a
  // schedule, unmodified (sim/interop/chakra_trace.h): that schedule, run as
  // `photonsim replay` runs one (no task graph; workload.collective, message
  // and root are the schedule's), and the file that holds it, for messages.
  std::shared_ptr<const Schedule> imported_schedule;
  std::string imported_schedule_source;
};

// Runs `body`; an Error whose message starts with a key of the config
// ("synthesis.planner: ...") is rethrown with that key's location in front.
template <class Body>
auto located(const ExperimentConfig& config, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const Error& e) {
    const std::string message = e.what();
    const std::string* best = nullptr;
    size_t best_length = 0;
    for (const auto& [key, location] : config.key_locations) {
      if (key.size() > best_length && message.starts_with(key) && message.size() > key.size() &&
          (message[key.size()] == ':' || message[key.size()] == ' ')) {
        best = &location;
        best_length = key.size();
      }
    }
    if (best == nullptr || message.starts_with(*best)) throw;
    throw Error(*best + ": " + message);
  }
}

}  // namespace photonsim
