#pragma once
// Contract: a topology generator as it describes itself, beside its code
// (topology/generator_<name>.cpp): its YAML name (synthesis.topology), one
// line on the circuits it makes, its parameters with types and defaults, the
// sizes it supports in words, and the function that builds it (empty for
// `none` and `from_step`, which the registry and the synthesizer resolve).
#include <functional>
#include <string>
#include <vector>

#include "topology/component_params.h"
#include "topology/generator_context.h"
#include "topology/parameter_spec.h"
#include "topology/topology.h"

namespace photonsim {

struct TopologyGenerator {
  using Builder = std::function<Topology(const ComponentParams&, const GeneratorContext&)>;
  std::string name;
  std::string description;
  std::vector<ParameterSpec> parameters;
  Builder build;
  std::string sizes = "n >= 2";
};

}  // namespace photonsim
