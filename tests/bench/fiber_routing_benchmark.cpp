// PCCL's Figure 19(b): fibers per server edge that route_fibers needs on an
// 8x8 server grid for 100 and 512 uniformly random circuits (seeds 1..3).
// CSV on stdout. Usage: fiber_routing_benchmark [time limit s = 60]
//   [circuits ...] (default 100 512).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/rng.h"
#include "topology/physical/fiber_routing.h"

int main(int argc, char** argv) {
  using namespace photonsim;
  const double limit = argc > 1 ? std::atof(argv[1]) : 60.0;
  std::vector<int> sizes;
  for (int a = 2; a < argc; ++a) sizes.push_back(std::atoi(argv[a]));
  if (sizes.empty()) sizes = {100, 512};
  const ServerGrid grid{8, 8};
  const auto servers = static_cast<uint64_t>(grid.servers());
  std::printf("servers,circuits,seed,fibers,best_bound,optimal,cut_bound,solve_s\n");
  for (int circuits : sizes) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      Rng rng(seed);
      std::vector<FiberDemand> demands;
      while (static_cast<int>(demands.size()) < circuits) {
        const auto src = static_cast<int>(rng.uniform(servers));
        const auto dst = static_cast<int>(rng.uniform(servers));
        if (src != dst) demands.push_back({src, dst});
      }
      FiberRoutingOptions options;
      options.time_limit_s = limit;
      const FiberRouting r = route_fibers(grid, demands, options);
      std::printf("%d,%d,%llu,%d,%g,%d,%d,%.2f\n", grid.servers(), circuits, static_cast<unsigned long long>(seed),
                  r.fibers, r.best_bound, r.optimal ? 1 : 0, fiber_cut_lower_bound(grid, demands), r.solve_seconds);
      std::fflush(stdout);
    }
  }
  return 0;
}
