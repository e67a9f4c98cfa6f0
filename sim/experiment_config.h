#pragma once
// Contract: one experiment, fully validated: every field below is either
// given in the YAML (or a --set override) or holds its documented default.
#include <cstdint>
#include <string>

#include "core/fabric_spec.h"
#include "core/synthesis_spec.h"
#include "core/workload_spec.h"

namespace photonsim {

struct ExperimentConfig {
  std::string source;         // file the config came from, for messages
  uint64_t seed = 1;
  FabricSpec fabric;
  WorkloadSpec workload;
  SynthesisSpec synthesis;
  std::string output_dir;     // empty = do not write files
};

}  // namespace photonsim
