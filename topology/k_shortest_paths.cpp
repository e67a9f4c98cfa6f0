#include "topology/k_shortest_paths.h"

#include <algorithm>
#include <cstddef>
#include <set>
#include <string>

#include "core/error.h"
#include "topology/all_shortest_paths.h"
#include "topology/breadth_first_search.h"

namespace photonsim {

namespace {

using Path = std::vector<Node>;

// The order Yen's candidates are taken in: fewer hops first, then smaller
// clockwise offsets hop by hop. All candidates share src, so offsets identify a path.
struct HopsThenClockwise {
  int n;
  bool operator()(const Path& a, const Path& b) const {
    if (a.size() != b.size()) return a.size() < b.size();
    for (size_t i = 1; i < a.size(); ++i) {
      const int oa = (static_cast<int>(a[i]) - static_cast<int>(a[i - 1]) + n) % n;
      const int ob = (static_cast<int>(b[i]) - static_cast<int>(b[i - 1]) + n) % n;
      if (oa != ob) return oa < ob;
    }
    return false;
  }
};

// Breadth-first search over the clockwise successors that skips blocked
// nodes and blocked first hops out of `src`, so the path found is the
// clockwise-lexicographically first shortest one. Empty when none exists.
Path spur_path(BreadthFirstSearch& search, Node src, Node dst, const std::vector<bool>& blocked_node,
               const std::vector<Node>& blocked_first_hop) {
  search.run(
      src,
      [&](Node u, Node v) {
        if (blocked_node[v]) return false;
        return u != src || std::find(blocked_first_hop.begin(), blocked_first_hop.end(), v) == blocked_first_hop.end();
      },
      dst);
  return search.path_to(dst);
}

}  // namespace

std::vector<std::vector<Node>> k_shortest_paths(const Topology& topology, Node src, Node dst, int k) {
  if (k <= 0) throw Error("k_shortest_paths: k must be at least 1, got " + std::to_string(k));
  const int n = topology.gpus();
  for (Node v : {src, dst}) {
    if (v >= static_cast<Node>(n)) {
      throw Error("node " + std::to_string(v) + " is out of range for topology '" + topology.name() + "' with " +
                  std::to_string(n) + " GPUs");
    }
  }
  BreadthFirstSearch search(clockwise_successors(topology));
  std::vector<Path> accepted;
  if (src == dst) return {Path{src}};
  Path first = spur_path(search, src, dst, std::vector<bool>(static_cast<size_t>(n), false), {});
  if (first.empty()) return accepted;
  accepted.push_back(std::move(first));

  std::set<Path, HopsThenClockwise> candidates(HopsThenClockwise{n});
  while (static_cast<int>(accepted.size()) < k) {
    const Path& last = accepted.back();
    for (size_t i = 0; i + 1 < last.size(); ++i) {
      // Root = last[0..i]; the spur leaves last[i] by a hop no accepted path
      // with the same root already took, and never revisits the root.
      std::vector<Node> blocked_first_hop;
      for (const Path& p : accepted) {
        if (p.size() <= i + 1) continue;
        if (std::equal(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(i + 1), last.begin())) {
          blocked_first_hop.push_back(p[i + 1]);
        }
      }
      std::vector<bool> blocked_node(static_cast<size_t>(n), false);
      for (size_t j = 0; j < i; ++j) blocked_node[last[j]] = true;
      const Path spur = spur_path(search, last[i], dst, blocked_node, blocked_first_hop);
      if (spur.empty()) continue;
      Path candidate(last.begin(), last.begin() + static_cast<std::ptrdiff_t>(i));
      candidate.insert(candidate.end(), spur.begin(), spur.end());
      candidates.insert(std::move(candidate));
    }
    if (candidates.empty()) break;
    accepted.push_back(*candidates.begin());
    candidates.erase(candidates.begin());
  }
  return accepted;
}

}  // namespace photonsim
