#include "topology/topology_registry.h"

#include "core/error.h"
#include "topology/ring_generator.h"

namespace photonsim {

TopologyRegistry TopologyRegistry::with_builtin_generators() {
  TopologyRegistry registry;
  registry.add({"none", "", "no circuits: the first step's configuration is a charged reconfiguration",
                nullptr});
  registry.add({"ring", "bidirectional=true|false (default: true when fabric.circuits is bidirectional)",
                "cycle 0 -> 1 -> ... -> n-1 -> 0, optionally with the reverse circuits",
                &make_ring});
  return registry;
}

void TopologyRegistry::add(Entry entry) { entries_.push_back(std::move(entry)); }

std::string TopologyRegistry::names() const {
  std::string out;
  for (const Entry& e : entries_) out += (out.empty() ? "" : ", ") + e.name;
  return out;
}

std::optional<Topology> TopologyRegistry::make(const TopologySpec& spec,
                                               const FabricSpec& fabric) const {
  for (const Entry& e : entries_) {
    if (e.name != spec.type) continue;
    if (!e.build) {
      if (!spec.params.empty()) {
        throw Error("topology 'none' takes no parameters, got '" + spec.params.begin()->first + "'");
      }
      return std::nullopt;
    }
    Topology t = e.build(spec, fabric);
    t.check_ports(fabric);
    return t;
  }
  throw Error("unknown topology '" + spec.type + "' (valid: " + names() + ")");
}

}  // namespace photonsim
