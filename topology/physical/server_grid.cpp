#include "topology/physical/server_grid.h"

#include <string>

#include "core/error.h"

namespace photonsim {

std::vector<std::pair<int, int>> server_edges(const ServerGrid& grid) {
  if (grid.rows < 1 || grid.cols < 1) {
    throw Error("server grid " + std::to_string(grid.rows) + "x" + std::to_string(grid.cols) +
                ": rows and cols must be at least 1");
  }
  std::vector<std::pair<int, int>> edges;
  for (int r = 0; r < grid.rows; ++r) {
    for (int c = 0; c < grid.cols; ++c) {
      const int u = r * grid.cols + c;
      // Neighbours in increasing id: up, left, right, down.
      if (r > 0) edges.emplace_back(u, u - grid.cols);
      if (c > 0) edges.emplace_back(u, u - 1);
      if (c + 1 < grid.cols) edges.emplace_back(u, u + 1);
      if (r + 1 < grid.rows) edges.emplace_back(u, u + grid.cols);
    }
  }
  return edges;
}

}  // namespace photonsim
