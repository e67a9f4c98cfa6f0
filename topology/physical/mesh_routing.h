#pragma once
// Contract: PCCL's Algorithm 3 (Appendix B, "mesh routing with edge reuse
// constraint"): optical circuits through a server's MZI mesh such that no
// waveguide carries two circuits of one wavelength. Requests are routed one at
// a time, in order; each keeps one wavelength along its whole path, and
// wavelengths are tried 0..W-1, the first that yields a valid path winning.
// For one wavelength, up to `trials` times: take a shortest path under the
// current waveguide weights (MeshShortestPath: A* or Dijkstra, deterministic
// ties); if no waveguide on it already carries that wavelength, accept it; else
// multiply the weight of each such waveguide by `penalty_factor` and retry.
// Weights: the paper starts them at 0 and adds edge counts, but with all-zero
// weights every path ties and the choice is arbitrary, so here a waveguide's
// weight is 1 + the circuits on it (all wavelengths, kept circuits included):
// hop count at first, and each accepted circuit makes its waveguides dearer so
// later circuits spread out. Penalties last for one request's trials on one
// wavelength (a waveguide full on wavelength 0 may be free on 1); then every
// weight is 1 + circuits again. A request for which no valid path exists on a
// wavelength (an end with no waveguide free on it, or no path over its free
// waveguides, searched for after the first rejected path) skips that
// wavelength's remaining trials: they could only fail, so the routes are the
// same, sooner. A request that cannot be
// routed gets an empty route and the following requests are still routed.
// Deterministic: the same mesh, requests, options and kept circuits give the
// same routes. Errors (photonsim::Error): a request with a node outside the
// mesh, src == dst or a wavelength outside -1..W-1, trials < 1, penalty_factor not above 1 (or not finite),
// a kept circuit that is not a walk over waveguides with a wavelength of the
// mesh, or two kept circuits of one wavelength on one waveguide.
#include <vector>

#include "topology/physical/mzi_mesh.h"

namespace photonsim {

struct MeshRequest {
  int src = 0;  // MZI nodes: a tile's transceiver, or a port at the mesh's edge
  int dst = 0;
  // The wavelength the circuit must keep (one it already has on a fiber), or
  // -1: any, tried in order.
  int wavelength = -1;
};

struct MeshRoutingOptions {
  int trials = 64;              // shortest-path searches per request and wavelength
  double penalty_factor = 2.0;  // multiplies the weight of a waveguide that made a path invalid
  // A* towards the target instead of plain Dijkstra (MeshShortestPath): the
  // same path lengths, far fewer nodes settled; ties may go another way.
  bool goal_directed = true;
};

struct MeshRoute {
  std::vector<int> nodes;  // src..dst; empty if unrouted
  int wavelength = -1;

  bool routed() const { return !nodes.empty(); }
  // Waveguides crossed.
  int hops() const { return nodes.empty() ? 0 : static_cast<int>(nodes.size()) - 1; }
};

struct MeshRouting {
  std::vector<MeshRoute> routes;  // per request, in order
  bool complete = false;          // every request routed
  int first_failure = -1;         // the first request that could not be routed (then complete is false)
  int routed = 0;                 // requests routed
  std::vector<int>
      waveguide_use;     // per waveguide: circuits of these routes on it (all wavelengths; kept ones not counted)
  int most_used = 0;     // max of waveguide_use
  long long trials = 0;  // shortest-path searches run
  double seconds = 0;    // wall time of the routing
};

// `kept`: circuits already in place (e.g. kept from the previous
// configuration); their wavelengths on their waveguides are taken.
// `failed`: MZIs that failed (fabric.failures' `mzi` entries): no circuit
// passes one, starts or ends at one; every waveguide touching it is closed
// on every wavelength (weight +infinity, taken), so the searches route around
// it, and a request with an end on one is not routed. An MZI outside the mesh,
// or a kept circuit through a failed one, is an Error.
MeshRouting route_mesh(const MziMesh& mesh, const std::vector<MeshRequest>& requests,
                       const MeshRoutingOptions& options = {}, const std::vector<MeshRoute>& kept = {},
                       const std::vector<int>& failed = {});

// Insertion loss of a routed circuit: per_mzi_db for every MZI it passes
// (src and dst included), per_tile_crossing_db for every waveguide that crosses
// from one tile to another, tiles being tile_side x tile_side blocks of MZIs
// from the mesh's corner (reticle stitch loss, 0.2 dB in the paper). Throws
// Error for tile_side < 1; an unrouted circuit has no loss (0).
double mesh_route_loss_db(const MziMesh& mesh, const MeshRoute& route, double per_mzi_db, double per_tile_crossing_db,
                          int tile_side);

}  // namespace photonsim
