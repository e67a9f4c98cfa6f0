#pragma once
// Contract: topology generators keyed by their YAML name. make() validates the
// generator's parameters and throws Error naming the bad parameter, or for an
// unknown name, listing every valid one. Registries are plain values built by
// with_builtin_generators(); there is no global registry. Two names are not
// generators: `none` (no circuits, make() returns nullopt) and `from_step`
// (the circuits a step's transfers ask for, resolved by the synthesizer,
// which knows the steps; make() refuses it with a message saying so).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/spec/topology_spec.h"
#include "topology/generator_context.h"
#include "topology/topology.h"
#include "topology/component_params.h"
#include "topology/topology_generator.h"

namespace photonsim {

class TopologyRegistry {
 public:
  using Builder = TopologyGenerator::Builder;
  using Entry = TopologyGenerator;

  static TopologyRegistry with_builtin_generators();

  void add(Entry entry);
  // Builds and port-checks the topology; `none` yields std::nullopt.
  std::optional<Topology> make(const TopologySpec& spec, const FabricSpec& fabric, uint64_t seed = 1) const;
  const Entry& entry(const std::string& name) const;
  const std::vector<Entry>& entries() const { return entries_; }
  std::string names() const;

 private:
  std::vector<Entry> entries_;
};

}  // namespace photonsim
