#pragma once
// Contract: a shortest path between two MZIs of a mesh under per-waveguide
// weights, each >= 1 (or +infinity: a waveguide not to take). Plain: Dijkstra,
// nodes leaving the binary heap in (distance, node id) order, so equal
// distances go to the lower node id. Goal-directed: A*, i.e. Dijkstra on the
// weights reduced by the Manhattan distance to the target (a lower bound, as no
// weight is below 1, so the path is still a shortest one), nodes leaving the
// heap in (distance + Manhattan distance to the target, larger distance first,
// node id) order; it settles the nodes near the straight way only, not a disc
// around the source. Either way a node keeps the first predecessor that reached
// its final distance (only strictly shorter distances replace it), and the
// search stops as soon as the target leaves the heap. Both are deterministic;
// among equally short paths they may choose differently. Buffers live in the object and
// are reused from search to search (a generation stamp marks which entries the
// current search wrote), so one object serves many searches without clearing
// arrays of the mesh's size; not safe to share between threads.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "topology/physical/mzi_mesh.h"

namespace photonsim {

class MeshShortestPath {
 public:
  explicit MeshShortestPath(const MziMesh& mesh);

  // A shortest path src..dst into `path` (nodes) and `waveguides` (between
  // them, one fewer); false, both empty, if only infinite weights lead there.
  bool find(int src, int dst, std::span<const double> weight, std::vector<int>& path, std::vector<int>& waveguides,
            bool goal_directed = true);

  // Whether dst can be reached from src over waveguides with blocked[w] == 0
  // (breadth first, stopping at dst).
  bool reachable(int src, int dst, std::span<const uint8_t> blocked);

 private:
  void next_generation();
  bool seen(int node) const { return stamp_[static_cast<size_t>(node)] == generation_; }

  const MziMesh& mesh_;
  uint32_t generation_ = 0;
  std::vector<uint32_t> stamp_;  // == generation_: distance_ and via_ hold this search's values
  std::vector<uint32_t> done_;   // == generation_: the node's distance is final
  std::vector<double> distance_;
  std::vector<int> via_;  // the waveguide the node was reached by
  struct Entry {
    double key;       // distance, plus the Manhattan distance to the target if goal-directed
    double distance;  // from the source
    int node;
  };
  std::vector<Entry> heap_;
  std::vector<int> queue_;
};

}  // namespace photonsim
