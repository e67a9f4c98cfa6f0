// PCCL's Figure 19(b): fibers per server edge that route_fibers needs on an
// 8x8 server grid for 100 and 512 uniformly random circuits (seeds 1..3),
// under both fiber models: one-way (shared 0: z per directed edge) and
// shared directions (shared 1: z per link, both directions together).
// CSV on stdout. Usage: fiber_routing_benchmark [--shared=0|1|both]
//   [time limit s = 60] [circuits ...] (default 100 512; both models).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/rng.h"
#include "topology/physical/fiber_routing.h"

int main(int argc, char** argv) {
  using namespace photonsim;
  std::vector<bool> models{false, true};
  std::vector<const char*> positional;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--shared=0") == 0) {
      models = {false};
    } else if (std::strcmp(argv[a], "--shared=1") == 0) {
      models = {true};
    } else if (std::strcmp(argv[a], "--shared=both") == 0) {
      models = {false, true};
    } else if (std::strncmp(argv[a], "--", 2) == 0) {
      std::fprintf(stderr, "fiber_routing_benchmark: unknown option %s (--shared=0|1|both)\n", argv[a]);
      return 2;
    } else {
      positional.push_back(argv[a]);
    }
  }
  const double limit = !positional.empty() ? std::atof(positional[0]) : 60.0;
  std::vector<int> sizes;
  for (size_t a = 1; a < positional.size(); ++a) sizes.push_back(std::atoi(positional[a]));
  if (sizes.empty()) sizes = {100, 512};
  const ServerGrid grid{8, 8};
  const auto servers = static_cast<uint64_t>(grid.servers());
  std::printf("servers,circuits,seed,fibers,best_bound,optimal,cut_bound,solve_s,shared\n");
  for (const bool shared : models) {
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
        options.shared_directions = shared;
        const FiberRouting r = route_fibers(grid, demands, options);
        std::printf("%d,%d,%llu,%d,%g,%d,%d,%.2f,%d\n", grid.servers(), circuits, static_cast<unsigned long long>(seed),
                    r.fibers, r.best_bound, r.optimal ? 1 : 0, fiber_cut_lower_bound(grid, demands, 1, {}, shared),
                    r.solve_seconds, shared ? 1 : 0);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
