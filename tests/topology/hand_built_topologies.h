#pragma once
// Test topologies built by hand, so routing and property tests do not depend
// on the generators they would otherwise be checking. Node ids are row-major.
#include <vector>

#include "topology/topology.h"

namespace photonsim::hand_built {

inline Node at(int row, int col, int cols) { return static_cast<Node>(row * cols + col); }

// Bidirectional neighbours with wrap-around in both dimensions.
inline Topology torus(int rows, int cols) {
  std::vector<Edge> e;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      e.push_back({at(r, c, cols), at(r, (c + 1) % cols, cols)});
      e.push_back({at(r, c, cols), at(r, (c + cols - 1) % cols, cols)});
      e.push_back({at(r, c, cols), at((r + 1) % rows, c, cols)});
      e.push_back({at(r, c, cols), at((r + rows - 1) % rows, c, cols)});
    }
  }
  return Topology("torus", rows * cols, std::move(e));
}

// A torus without the wrap-around links.
inline Topology grid(int rows, int cols) {
  std::vector<Edge> e;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (c + 1 < cols) e.push_back({at(r, c, cols), at(r, c + 1, cols)});
      if (c > 0) e.push_back({at(r, c, cols), at(r, c - 1, cols)});
      if (r + 1 < rows) e.push_back({at(r, c, cols), at(r + 1, c, cols)});
      if (r > 0) e.push_back({at(r, c, cols), at(r - 1, c, cols)});
    }
  }
  return Topology("grid", rows * cols, std::move(e));
}

inline Topology hypercube(int dims) {
  std::vector<Edge> e;
  const Node n = Node{1} << dims;
  for (Node u = 0; u < n; ++u) {
    for (int b = 0; b < dims; ++b) e.push_back({u, u ^ (Node{1} << b)});
  }
  return Topology("hypercube", static_cast<int>(n), std::move(e));
}

}  // namespace photonsim::hand_built
