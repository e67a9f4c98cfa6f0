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

#include "topology/physical/mesh_routing.h"
#include "topology/physical/mzi_mesh.h"
#include "tests/support/mesh_requests.h"

namespace photonsim {
namespace {

using testing_support::border_requests;

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
