#include "topology/topology_registry.h"

#include "core/error.h"
#include "topology/generators.h"

namespace photonsim {

TopologyRegistry TopologyRegistry::with_builtin_generators() {
  TopologyRegistry r;
  r.add({"none", {}, "", "no circuits: the first step's configuration is a charged reconfiguration", nullptr});
  r.add({"ring", {"bidirectional"}, "bidirectional=true|false (default: fabric.circuits is bidirectional)",
         "cycle 0 -> 1 -> ... -> n-1 -> 0, with the reverse circuits when bidirectional", &make_ring});
  r.add({"shifted_ring", {"shift", "base", "bidirectional"},
         "shift=S (default 1), base=[sigma_1..sigma_n] (default 0..n-1), bidirectional=true|false",
         "sigma_i -> sigma_{i+S}: the all-to-all paper's S-shifted ring (Fig. 6)", &make_shifted_ring});
  r.add({"circulant", {"generators", "bidirectional"}, "generators=[g1, g2, ...] (required), bidirectional=true|false",
         "i -> i + g mod n for each generator g; strongly connected iff gcd(n, g1, g2, ...) = 1", &make_circulant});
  r.add({"generalized_kautz", {"degree"}, "degree=D (default fabric.ports), 1 <= D < n",
         "Imase-Itoh x -> (-D*x - a) mod n, a = 1..D; self-loops dropped (that port stays dark)",
         &make_generalized_kautz});
  r.add({"de_bruijn", {"degree"}, "degree=D (default fabric.ports), 1 <= D < n",
         "generalized de Bruijn x -> (D*x + a) mod n, a = 0..D-1; self-loops dropped", &make_de_bruijn});
  r.add({"torus", {"dims", "dimensions"}, "dims=AxB[xC] or dimensions=2|3 (default 2, factored from n)",
         "2D/3D torus, row-major ids, links to +-1 in each dimension with wrap-around", &make_torus});
  r.add({"grid", {"dims", "dimensions"}, "dims=AxB[xC] or dimensions=2|3 (default 2, factored from n)",
         "2D/3D grid: a torus without the wrap-around links", &make_grid});
  r.add({"hypercube", {}, "n a power of two", "i <-> i xor 2^k for every bit k", &make_hypercube});
  r.add({"complete", {}, "", "every ordered pair: n-1 circuits per GPU", &make_complete});
  r.add({"subrings", {"m", "phase"}, "m=M (default 1) or phase=K (m = 3^K)",
         "ReTri Algorithm 1: i <-> i + M mod n, the residue classes mod gcd(n, M) as rings", &make_subrings});
  r.add({"random_regular", {"degree", "seed"}, "degree=D (default fabric.ports), seed=N (default: the experiment seed)",
         "union of D seeded random derangements (an expander), avoiding parallel circuits", &make_random_regular});
  r.add({"from_edges", {"edges", "file", "name"}, "edges=[[src, dst], ...] or file=PATH ('src dst' per line), name=TEXT",
         "an explicit list of circuits", &make_from_edges});
  r.add({"from_step", {"step"}, "step=K (default 0)",
         "the circuits step K of the algorithm asks for (synthesis.static_topology only)", nullptr});
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
  const ComponentParams params(e.name, spec.params, e.parameters);
  if (e.name == "none") return std::nullopt;
  if (!e.build) {
    throw Error("topology '" + e.name + "' is built from the algorithm's steps: use it as "
                "synthesis.static_topology");
  }
  Topology t = e.build(params, GeneratorContext{fabric, seed});
  t.check_ports(fabric);
  return t;
}

}  // namespace photonsim
