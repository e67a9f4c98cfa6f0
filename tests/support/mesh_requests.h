#pragma once
// Contract (tests and benchmarks): random circuit requests on an MZI mesh as
// PCCL samples them (Figure 19a): src on a random side of the mesh, dst on
// one of the other three; seeded, so the same seed gives the same requests.
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "topology/physical/mesh_routing.h"
#include "topology/physical/mzi_mesh.h"

namespace photonsim::testing_support {

// A random node on side 0 (top), 1 (right), 2 (bottom) or 3 (left).
inline int random_node_on_side(const MziMesh& mesh, int side, Rng& rng) {
  const auto at = [&](int bound) { return static_cast<int>(rng.uniform(static_cast<uint64_t>(bound))); };
  switch (side) {
    case 0:
      return mesh.node(0, at(mesh.cols()));
    case 1:
      return mesh.node(at(mesh.rows()), mesh.cols() - 1);
    case 2:
      return mesh.node(mesh.rows() - 1, at(mesh.cols()));
    default:
      return mesh.node(at(mesh.rows()), 0);
  }
}

inline std::vector<MeshRequest> border_requests(const MziMesh& mesh, int count, uint64_t seed) {
  Rng rng(seed);
  std::vector<MeshRequest> out;
  while (static_cast<int>(out.size()) < count) {
    const int side = static_cast<int>(rng.uniform(4));
    MeshRequest r;
    r.src = random_node_on_side(mesh, side, rng);
    r.dst = random_node_on_side(mesh, (side + 1 + static_cast<int>(rng.uniform(3))) % 4, rng);
    if (r.src != r.dst) out.push_back(r);  // a corner lies on two sides
  }
  return out;
}

}  // namespace photonsim::testing_support
