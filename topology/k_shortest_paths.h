#pragma once
// Contract: Yen's algorithm for the k shortest loopless paths from src to dst
// by hop count, as TopoOpt uses to spread traffic over several routes. Paths
// come in order of (hops, clockwise-lexicographic offsets (next - here) mod n),
// so ties are deterministic and the first path is ShortestPathRouter's
// default route; the result is exactly the first k loopless paths of that
// order. Returns fewer than k when fewer loopless paths exist (none when dst
// is unreachable; just {src} when src == dst). Parallel circuits do not
// multiply paths: a path is a sequence of nodes. Throws Error when k <= 0 or
// a node is out of range.
#include <vector>

#include "topology/topology.h"

namespace photonsim {

std::vector<std::vector<Node>> k_shortest_paths(const Topology& topology, Node src, Node dst, int k);

}  // namespace photonsim
