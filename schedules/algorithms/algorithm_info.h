#pragma once
// Contract: what a collective algorithm or joint synthesizer says of itself,
// beside its code: its YAML name (synthesis.algorithm), the collectives it
// implements, the planner it runs with by default, its parameters with types
// and defaults, and the sizes it supports in words (its supports() decides).
// The registry, `photonsim list`, parameter validation and the every-n
// verifier test are all generated from it.
#include <string>
#include <vector>

#include "core/spec/workload_spec.h"
#include "topology/parameter_spec.h"

namespace photonsim {

struct AlgorithmInfo {
  std::string name;
  std::vector<Collective> collectives;
  std::string default_planner;
  std::string description;
  std::vector<ParameterSpec> parameters = {};
  std::string sizes = "n >= 2";
  bool sized_flows = false;  // accepts workload.distribution other than uniform
  // Reads its steps from a file the user names (synthesis.algorithm.file):
  // not enumerable, so the every-algorithm tests pass it by.
  bool reads_file = false;
};

}  // namespace photonsim
