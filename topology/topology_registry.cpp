#include "topology/topology_registry.h"

#include "core/error.h"
#include "topology/generators.h"

namespace photonsim {

TopologyRegistry TopologyRegistry::with_builtin_generators() {
  TopologyRegistry r;
  r.add({"none", "no circuits: the first step's configuration is a charged reconfiguration", {}, nullptr});
  r.add(ring_generator());
  r.add(shifted_ring_generator());
  r.add(circulant_generator());
  r.add(generalized_kautz_generator());
  r.add(de_bruijn_generator());
  r.add(torus_generator());
  r.add(grid_generator());
  r.add(hypercube_generator());
  r.add(complete_generator());
  r.add(subrings_generator());
  r.add(random_regular_generator());
  r.add(from_edges_generator());
  r.add({"from_step",
         "the circuits step K of the algorithm asks for (synthesis.static_topology only)",
         {ParameterSpec::integer("step", 0, "K")},
         nullptr});
  return r;
}

void TopologyRegistry::add(Entry entry) { entries_.push_back(std::move(entry)); }

std::string TopologyRegistry::names() const {
  std::string out;
  for (const Entry& e : entries_) out += (out.empty() ? "" : ", ") + e.name;
  return out;
}

const TopologyRegistry::Entry& TopologyRegistry::entry(const std::string& name) const {
  for (const Entry& e : entries_) {
    if (e.name == name) return e;
  }
  throw Error("unknown topology " + quoted(name) + " (valid: " + names() + ")");
}

std::optional<Topology> TopologyRegistry::make(const TopologySpec& spec, const FabricSpec& fabric,
                                               uint64_t seed) const {
  const Entry& e = entry(spec.type);
  const ComponentParams params(e.name, spec.params, e.parameters, "topology");
  if (e.name == "none") return std::nullopt;
  if (!e.build) {
    throw Error("topology '" + e.name +
                "' is built from the algorithm's steps: use it as "
                "synthesis.static_topology");
  }
  Topology t = e.build(params, GeneratorContext{fabric, seed});
  t.check_ports(fabric);
  return t;
}

}  // namespace photonsim
