// PCCL's figure 19a for Algorithm 3 (mesh_routing.h): time to route random
// circuits through a server's MZI mesh, for meshes 16x16 .. 256x256 (65,536
// MZIs; the paper: under 2.5 s) and 50 .. 400 circuits, 3 seeds each. As in
// the paper, each circuit joins two waveguide ports on different edges of the
// mesh: src on a random side, dst on one of the other three. Prints CSV
//   mesh,mzis,circuits,seed,routed,most_used,mean_hops,seconds
// (seconds: route_mesh's wall time; mean_hops over routed circuits).
// Usage: mesh_routing_benchmark [wavelengths (default 1)] [largest side (default 256)]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/rng.h"
#include "topology/physical/mesh_routing.h"
#include "topology/physical/mzi_mesh.h"

namespace photonsim {
namespace {

// A random node on side 0 (top), 1 (right), 2 (bottom) or 3 (left).
int on_side(const MziMesh& mesh, int side, Rng& rng) {
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

std::vector<MeshRequest> border_requests(const MziMesh& mesh, int count, uint64_t seed) {
  Rng rng(seed);
  std::vector<MeshRequest> out;
  while (static_cast<int>(out.size()) < count) {
    const int side = static_cast<int>(rng.uniform(4));
    MeshRequest r{on_side(mesh, side, rng), on_side(mesh, (side + 1 + static_cast<int>(rng.uniform(3))) % 4, rng)};
    if (r.src != r.dst) out.push_back(r);  // a corner lies on two sides
  }
  return out;
}

int run(int wavelengths, int largest) {
  std::printf("mesh,mzis,circuits,seed,routed,most_used,mean_hops,seconds\n");
  for (int side = 16; side <= largest; side *= 2) {
    const MziMesh mesh(side, side, wavelengths);
    for (int circuits : {50, 100, 200, 400}) {
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        const MeshRouting result = route_mesh(mesh, border_requests(mesh, circuits, seed));
        long long hops = 0;
        for (const MeshRoute& route : result.routes) hops += route.hops();
        const double mean = result.routed > 0 ? static_cast<double>(hops) / result.routed : 0.0;
        std::printf("%dx%d,%d,%d,%llu,%d,%d,%.2f,%.4f\n", side, side, mesh.nodes(), circuits,
                    static_cast<unsigned long long>(seed), result.routed, result.most_used, mean, result.seconds);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace photonsim

int main(int argc, char** argv) {
  const int wavelengths = argc > 1 ? std::atoi(argv[1]) : 1;
  const int largest = argc > 2 ? std::atoi(argv[2]) : 256;
  if (wavelengths < 1 || largest < 16) {
    std::fprintf(stderr, "usage: mesh_routing_benchmark [wavelengths >= 1] [largest side >= 16]\n");
    return 2;
  }
  return photonsim::run(wavelengths, largest);
}
