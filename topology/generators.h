#pragma once
// Contract: the built-in topology generators, one per file
// (topology/generator_<name>.cpp), each with its self-description
// (<name>_generator(): name, parameters, sizes), registered in
// topology_registry.cpp by one add line. Each validates its parameters and throws Error naming
// the parameter. Node ids are 0..n-1; a bidirectional link is two directed
// circuits. Generators never emit self-loops: a formula that maps a node to
// itself leaves that port unused (documented per generator).
#include "topology/generator_context.h"
#include "topology/topology.h"
#include "topology/component_params.h"
#include "topology/topology_generator.h"

namespace photonsim {

// i -> i+1 (and i -> i-1 when bidirectional; default: fabric.circuits).
Topology make_ring(const ComponentParams& params, const GeneratorContext& context);
// The all-to-all paper's s-shifted ring over a base sigma-sequence (Fig. 6):
// sigma_i -> sigma_{i+s}. `base` defaults to 0..n-1.
Topology make_shifted_ring(const ComponentParams& params, const GeneratorContext& context);
// i -> i + g mod n for every g in `generators` (one circuit per generator).
Topology make_circulant(const ComponentParams& params, const GeneratorContext& context);
// Imase-Itoh: x -> (-d*x - a) mod n for a = 1..d.
Topology make_generalized_kautz(const ComponentParams& params, const GeneratorContext& context);
// Generalized de Bruijn (Imase-Itoh / Reddy-Pradhan-Kuhl): x -> (d*x + a) mod n, a = 0..d-1.
Topology make_de_bruijn(const ComponentParams& params, const GeneratorContext& context);
// 2D/3D torus and grid (a torus without wrap-around), row-major ids.
Topology make_torus(const ComponentParams& params, const GeneratorContext& context);
Topology make_grid(const ComponentParams& params, const GeneratorContext& context);
// i <-> i xor 2^k, n a power of two.
Topology make_hypercube(const ComponentParams& params, const GeneratorContext& context);
// Every ordered pair.
Topology make_complete(const ComponentParams& params, const GeneratorContext& context);
// ReTri Algorithm 1: the residue classes mod m as rings, i <-> i + m mod n.
Topology make_subrings(const ComponentParams& params, const GeneratorContext& context);
// Union of `degree` seeded random derangements, avoiding parallel circuits when it can.
Topology make_random_regular(const ComponentParams& params, const GeneratorContext& context);
// An explicit list of circuits: `edges: [[0, 1], [1, 2]]` or `file: PATH` ("src dst" per line).
Topology make_from_edges(const ComponentParams& params, const GeneratorContext& context);

// Self-descriptions, beside each generator.
TopologyGenerator ring_generator();
TopologyGenerator shifted_ring_generator();
TopologyGenerator circulant_generator();
TopologyGenerator generalized_kautz_generator();
TopologyGenerator de_bruijn_generator();
TopologyGenerator torus_generator();
TopologyGenerator grid_generator();
TopologyGenerator hypercube_generator();
TopologyGenerator complete_generator();
TopologyGenerator subrings_generator();
TopologyGenerator random_regular_generator();
TopologyGenerator from_edges_generator();

}  // namespace photonsim
