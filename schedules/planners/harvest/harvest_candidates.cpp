#include "schedules/planners/harvest/harvest_candidates.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_set>

#include "core/error.h"
#include "topology/generators.h"
#include "topology/step_circuits.h"
#include "topology/topology_hash.h"

namespace photonsim {

namespace {

bool fits_ports(const Topology& topology, const FabricSpec& fabric) {
  try {
    topology.check_ports(fabric);
    return true;
  } catch (const Error&) {
    return false;
  }
}

// Collects candidates in order, once per circuit set, only those that fit.
class CandidateList {
 public:
  explicit CandidateList(const FabricSpec& fabric) : fabric_(fabric) {}
  void add(const Topology& topology) {
    if (topology.empty() || !fits_ports(topology, fabric_)) return;
    if (seen_.insert(topology).second) list_.push_back(topology);
  }
  std::vector<Topology> take() { return std::move(list_); }

 private:
  const FabricSpec& fabric_;
  std::unordered_set<Topology, TopologyHash> seen_;
  std::vector<Topology> list_;
};

// u -> u + g (mod n) for every generator (and back, for bidirectional circuits).
Topology shifted_rings(const std::string& name, int n, const std::vector<int64_t>& generators, bool bidirectional) {
  std::set<Edge> edges;
  for (int64_t g : generators) {
    for (int u = 0; u < n; ++u) {
      const Node v = static_cast<Node>((u + g) % n);
      edges.insert({static_cast<Node>(u), v});
      if (bidirectional) edges.insert({v, static_cast<Node>(u)});
    }
  }
  return Topology(name, n, std::vector<Edge>(edges.begin(), edges.end()));
}

// Adds `value` (mod n) to `gens` unless it is 0 or already there.
void add_generator(std::vector<int64_t>& gens, int64_t value, int n) {
  const int64_t g = ((value % n) + n) % n;
  if (g != 0 && std::find(gens.begin(), gens.end(), g) == gens.end()) gens.push_back(g);
}

std::string join_candidate_names(const std::vector<int64_t>& values, const char* separator) {
  std::string out;
  for (int64_t v : values) out += (out.empty() ? "" : separator) + std::to_string(v);
  return out;
}

void add_shifted_rings(CandidateList& out, const FabricSpec& fabric) {
  const int n = fabric.gpus;
  const bool bidirectional = fabric.circuits == CircuitKind::bidirectional;
  const int rings = bidirectional ? std::max(1, fabric.ports / 2) : fabric.ports;
  for (int64_t s = 1; s < n; ++s) {
    std::vector<int64_t> doubling;
    for (int64_t g = s, k = 0; g != 0 && k < n && static_cast<int>(doubling.size()) < rings; g = 2 * g % n, ++k) {
      add_generator(doubling, g, n);
    }
    out.add(shifted_rings("shifted_ring(" + join_candidate_names(doubling, ",") + ")", n, doubling, bidirectional));
    if (!bidirectional && rings >= 2) {
      std::vector<int64_t> two_way;
      for (int64_t k = 1; static_cast<int>(two_way.size()) < rings && k < n; ++k) {
        add_generator(two_way, k * s, n);
        if (static_cast<int>(two_way.size()) < rings) add_generator(two_way, -k * s, n);
      }
      out.add(shifted_rings("shifted_ring(" + join_candidate_names(two_way, ",") + ")", n, two_way, false));
    }
  }
}

// Row-major torus: coordinate k of u moves by +shift[k] (and -shift[k] when two_way).
Topology shifted_torus(int n, const std::vector<int>& dims, const std::vector<int64_t>& shifts, bool two_way) {
  std::vector<int> stride(dims.size(), 1);
  for (size_t k = dims.size() - 1; k > 0; --k) stride[k - 1] = stride[k] * dims[k];
  std::set<Edge> edges;
  for (int u = 0; u < n; ++u) {
    for (size_t k = 0; k < dims.size(); ++k) {
      const int coordinate = (u / stride[k]) % dims[k];
      for (int64_t move : {shifts[k], -shifts[k]}) {
        if (move < 0 && !two_way) continue;
        const int next = static_cast<int>(((coordinate + move) % dims[k] + dims[k]) % dims[k]);
        if (next != coordinate)
          edges.insert({static_cast<Node>(u), static_cast<Node>(u + (next - coordinate) * stride[k])});
      }
    }
  }
  std::string name = "torus(";
  for (size_t k = 0; k < dims.size(); ++k) name += (k ? "x" : "") + std::to_string(dims[k]);
  name += std::string(two_way ? ";+-" : ";+") + join_candidate_names(shifts, ",") + ")";
  return Topology(name, n, std::vector<Edge>(edges.begin(), edges.end()));
}

// Ordered factorisations of n into `count` factors, each >= 2.
void factorisations(int n, int count, std::vector<int>& prefix, std::vector<std::vector<int>>& out) {
  if (count == 1) {
    if (n >= 2) {
      prefix.push_back(n);
      out.push_back(prefix);
      prefix.pop_back();
    }
    return;
  }
  for (int a = 2; a <= n / 2; ++a) {
    if (n % a != 0) continue;
    prefix.push_back(a);
    factorisations(n / a, count - 1, prefix, out);
    prefix.pop_back();
  }
}

void add_tori(CandidateList& out, const FabricSpec& fabric) {
  const int n = fabric.gpus;
  const bool bidirectional = fabric.circuits == CircuitKind::bidirectional;
  for (int dimensions : {2, 3}) {
    const bool one_way_fits = !bidirectional && fabric.ports >= dimensions;
    const bool two_way_fits = fabric.ports >= 2 * dimensions;
    if (!one_way_fits && !two_way_fits) continue;
    std::vector<std::vector<int>> all;
    std::vector<int> prefix;
    factorisations(n, dimensions, prefix, all);
    for (const std::vector<int>& dims : all) {
      // Per-dimension power-of-two shifts in 2D; unit shifts in 3D keep the list short.
      std::vector<std::vector<int64_t>> shift_sets{{}};
      for (int size : dims) {
        std::vector<std::vector<int64_t>> extended;
        for (const auto& set : shift_sets) {
          for (int64_t s = 1; s < size && (dimensions == 2 || s == 1); s *= 2) {
            extended.push_back(set);
            extended.back().push_back(s);
          }
        }
        shift_sets = std::move(extended);
      }
      for (const auto& shifts : shift_sets) {
        if (one_way_fits) out.add(shifted_torus(n, dims, shifts, false));
        if (two_way_fits) out.add(shifted_torus(n, dims, shifts, true));
      }
    }
  }
}

void add_expander(CandidateList& out, const FabricSpec& fabric, uint64_t seed) {
  const bool bidirectional = fabric.circuits == CircuitKind::bidirectional;
  const int degree = bidirectional ? std::max(1, fabric.ports / 2) : fabric.ports;
  if (degree >= fabric.gpus) return;
  const ComponentParams params("random_regular", {{"degree", std::to_string(degree)}, {"seed", std::to_string(seed)}},
                               {"degree", "seed"});
  const Topology random = make_random_regular(params, GeneratorContext{fabric, seed});
  if (!bidirectional) {
    out.add(Topology("expander(" + random.name() + ")", fabric.gpus, random.edges()));
    return;
  }
  std::set<Edge> edges;
  for (const Edge& e : random.edges()) {
    edges.insert(e);
    edges.insert({e.second, e.first});
  }
  out.add(Topology("expander(" + random.name() + ",symmetric)", fabric.gpus,
                   std::vector<Edge>(edges.begin(), edges.end())));
}

void add_step_circuits(CandidateList& out, const std::vector<std::vector<Transfer>>& steps, const FabricSpec& fabric) {
  auto pairs_of = [](const std::vector<Transfer>& step, std::vector<Edge>& pairs) {
    for (const Transfer& t : step) pairs.push_back({t.src, t.dst});
  };
  for (size_t i = 0; i < steps.size(); ++i) {
    std::vector<Edge> pairs;
    pairs_of(steps[i], pairs);
    out.add(circuits_for_pairs("step(" + std::to_string(i + 1) + ")", fabric.gpus, pairs, fabric.circuits));
  }
  // A step with the same pairs as an earlier one in the run (a ring's every
  // step) leaves the union as it was: that topology was added (or deduplicated
  // or refused) already, and a union past the ports stays past them.
  std::vector<size_t> same_pairs_as(steps.size());
  std::map<std::vector<Edge>, size_t> first_with;
  for (size_t i = 0; i < steps.size(); ++i) {
    std::vector<Edge> key;
    pairs_of(steps[i], key);
    std::sort(key.begin(), key.end());
    key.erase(std::unique(key.begin(), key.end()), key.end());
    same_pairs_as[i] = first_with.emplace(std::move(key), i).first->second;
  }
  for (size_t first = 0; first < steps.size(); ++first) {
    std::vector<Edge> pairs;
    pairs_of(steps[first], pairs);
    std::set<size_t> included{same_pairs_as[first]};
    for (size_t last = first + 1; last < steps.size(); ++last) {
      if (!included.insert(same_pairs_as[last]).second) continue;
      pairs_of(steps[last], pairs);
      const Topology run =
          circuits_for_pairs("steps(" + std::to_string(first + 1) + "-" + std::to_string(last + 1) + ")", fabric.gpus,
                             pairs, fabric.circuits);
      if (!fits_ports(run, fabric)) break;
      out.add(run);
    }
  }
}

// Step i's circuits over every free port (parallel_circuits_for_pairs), for
// the steps where some pair gains a circuit.
void add_parallel_step_circuits(CandidateList& out, const std::vector<std::vector<Transfer>>& steps,
                                const FabricSpec& fabric) {
  for (size_t i = 0; i < steps.size(); ++i) {
    std::vector<Edge> pairs;
    for (const Transfer& t : steps[i]) pairs.push_back({t.src, t.dst});
    const std::string name = "parallel_step(" + std::to_string(i + 1) + ")";
    const Topology parallel = parallel_circuits_for_pairs(name, fabric, pairs);
    if (parallel != circuits_for_pairs(name, fabric.gpus, pairs, fabric.circuits)) out.add(parallel);
  }
}

}  // namespace

HarvestCandidateFamilies HarvestCandidateFamilies::parse(const ComponentParams& params, const std::string& key) {
  HarvestCandidateFamilies families;
  if (!params.has(key)) return families;
  families = HarvestCandidateFamilies{false, false, false, false, false, false};
  std::string text = params.text(key);
  for (char& c : text) {
    if (c == '[' || c == ']' || c == ',') c = ' ';
  }
  size_t count = 0;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    size_t end = i;
    while (end < text.size() && text[end] != ' ') ++end;
    if (end == i) break;
    const std::string name = text.substr(i, end - i);
    i = end;
    ++count;
    if (name == "initial")
      families.initial = true;
    else if (name == "step")
      families.step = true;
    else if (name == "shifted_ring")
      families.shifted_ring = true;
    else if (name == "torus")
      families.torus = true;
    else if (name == "expander")
      families.expander = true;
    else if (name == "parallel")
      families.parallel = true;
    else
      params.fail(key, "unknown family '" + name + "' (valid: " + names() + ")");
  }
  if (count == 0) params.fail(key, std::string("must list at least one of: ") + names());
  return families;
}

std::vector<Topology> harvest_candidates(const std::vector<std::vector<Transfer>>& steps, const FabricSpec& fabric,
                                         uint64_t seed, const std::optional<Topology>& initial,
                                         const HarvestCandidateFamilies& families) {
  CandidateList out(fabric);
  if (families.initial && initial) out.add(*initial);
  if (families.step) add_step_circuits(out, steps, fabric);
  if (families.shifted_ring) add_shifted_rings(out, fabric);
  if (families.torus) add_tori(out, fabric);
  if (families.expander) add_expander(out, fabric, seed);
  if (families.parallel) add_parallel_step_circuits(out, steps, fabric);
  return out.take();
}

}  // namespace photonsim
