#pragma once
// Contract: one point-to-point move inside a step: `bytes` from src to dst,
// along `path` (src..dst inclusive) or, when empty, the shortest path on the
// step's topology; or, when `routes` is not empty, split over several paths
// (a multipath split such as a max-concurrent-flow decomposition), each
// route carrying its share of the bytes. Shortest-path ties go clockwise
// unless `counterclockwise`. `blocks` name the collective's data
// blocks the transfer carries as a whole.
#include <cstdint>
#include <vector>

#include "core/units.h"
#include "topology/topology.h"

namespace photonsim {

enum class TransferOp { copy, reduce };

struct Route {
  std::vector<Node> path;  // src..dst inclusive
  Bytes bytes;
};

struct Transfer {
  Node src = 0;
  Node dst = 0;
  Bytes bytes;
  std::vector<Node> path;
  std::vector<uint32_t> blocks;
  TransferOp op = TransferOp::copy;
  std::vector<Route> routes;
  // Without a path: among equal shortest paths prefer the counterclockwise
  // way (offsets u - v mod n); for mirrored algorithms' "-" direction.
  bool counterclockwise = false;
};

}  // namespace photonsim
