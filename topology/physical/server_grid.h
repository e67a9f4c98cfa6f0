#pragma once
// Contract: a rows x cols grid of servers joined by fibers (PCCL, section
// 4.2). Server id = r * cols + c. A fiber carries light one way, so every
// pair of 4-neighbours is joined by two directed edges; server_edges lists
// them sorted by (from, to), an order every per-edge vector here follows.
// Pure and deterministic.
#include <utility>
#include <vector>

namespace photonsim {

struct ServerGrid {
  int rows = 1;
  int cols = 1;

  int servers() const { return rows * cols; }
  bool contains(int server) const { return server >= 0 && server < servers(); }
};

// Throws photonsim::Error when rows or cols is below 1.
std::vector<std::pair<int, int>> server_edges(const ServerGrid& grid);

}  // namespace photonsim
