#pragma once
// Contract: topology generators keyed by their YAML name. make() validates the
// generator's parameters and throws Error naming the bad parameter, or for an
// unknown name, listing every valid one. Registries are plain values built by
// with_builtin_generators(); there is no global registry.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/fabric_spec.h"
#include "core/synthesis_spec.h"
#include "topology/topology.h"

namespace photonsim {

class TopologyRegistry {
 public:
  using Builder = std::function<Topology(const TopologySpec&, const FabricSpec&)>;
  struct Entry {
    std::string name;
    std::string parameters;   // one line: name=values (default)
    std::string description;
    Builder build;
  };

  static TopologyRegistry with_builtin_generators();

  void add(Entry entry);
  // "none" yields std::nullopt: the fabric holds no circuits.
  std::optional<Topology> make(const TopologySpec& spec, const FabricSpec& fabric) const;
  const std::vector<Entry>& entries() const { return entries_; }
  std::string names() const;

 private:
  std::vector<Entry> entries_;
};

}  // namespace photonsim
