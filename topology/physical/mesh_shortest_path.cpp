#include "topology/physical/mesh_shortest_path.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace photonsim {

MeshShortestPath::MeshShortestPath(const MziMesh& mesh)
    : mesh_(mesh),
      stamp_(static_cast<size_t>(mesh.nodes()), 0),
      done_(static_cast<size_t>(mesh.nodes()), 0),
      distance_(static_cast<size_t>(mesh.nodes()), 0.0),
      via_(static_cast<size_t>(mesh.nodes()), -1) {}

void MeshShortestPath::next_generation() {
  if (++generation_ == 0) {  // wrapped: stale stamps could match again
    std::fill(stamp_.begin(), stamp_.end(), 0);
    std::fill(done_.begin(), done_.end(), 0);
    generation_ = 1;
  }
}

bool MeshShortestPath::find(int src, int dst, std::span<const double> weight, std::vector<int>& path,
                            std::vector<int>& waveguides, bool goal_directed) {
  path.clear();
  waveguides.clear();
  next_generation();
  const int target_row = mesh_.row(dst), target_col = mesh_.col(dst);
  const auto bound = [&](int node) {
    if (!goal_directed) return 0.0;
    return static_cast<double>(std::abs(mesh_.row(node) - target_row) + std::abs(mesh_.col(node) - target_col));
  };
  // The heap functions keep the greatest on top: "later" puts the entry to settle first there.
  const auto later = [](const Entry& a, const Entry& b) {
    if (a.key != b.key) return a.key > b.key;
    if (a.distance != b.distance) return a.distance < b.distance;
    return a.node > b.node;
  };
  heap_.clear();
  const auto s = static_cast<size_t>(src);
  stamp_[s] = generation_;
  distance_[s] = 0;
  via_[s] = -1;
  heap_.push_back({bound(src), 0.0, src});
  bool found = false;
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const double d = heap_.back().distance;
    const int u = heap_.back().node;
    heap_.pop_back();
    const auto uu = static_cast<size_t>(u);
    if (done_[uu] == generation_) continue;  // a stale entry
    done_[uu] = generation_;
    if (u == dst) {
      found = true;
      break;
    }
    for (const MziMesh::Link& link : mesh_.neighbours(u)) {
      const auto v = static_cast<size_t>(link.node);
      if (done_[v] == generation_) continue;
      const double candidate = d + weight[static_cast<size_t>(link.waveguide)];
      if (candidate == std::numeric_limits<double>::infinity()) continue;
      if (stamp_[v] != generation_ || candidate < distance_[v]) {
        stamp_[v] = generation_;
        distance_[v] = candidate;
        via_[v] = link.waveguide;
        heap_.push_back({candidate + bound(link.node), candidate, link.node});
        std::push_heap(heap_.begin(), heap_.end(), later);
      }
    }
  }
  if (!found) return false;
  for (int v = dst; v != src;) {
    path.push_back(v);
    const int w = via_[static_cast<size_t>(v)];
    waveguides.push_back(w);
    const auto [a, b] = mesh_.ends(w);
    v = a == v ? b : a;
  }
  path.push_back(src);
  std::reverse(path.begin(), path.end());
  std::reverse(waveguides.begin(), waveguides.end());
  return true;
}

bool MeshShortestPath::reachable(int src, int dst, std::span<const uint8_t> blocked) {
  next_generation();
  queue_.clear();
  queue_.push_back(src);
  stamp_[static_cast<size_t>(src)] = generation_;
  for (size_t head = 0; head < queue_.size(); ++head) {
    const int u = queue_[head];
    if (u == dst) return true;
    for (const MziMesh::Link& link : mesh_.neighbours(u)) {
      if (blocked[static_cast<size_t>(link.waveguide)] != 0 || seen(link.node)) continue;
      stamp_[static_cast<size_t>(link.node)] = generation_;
      queue_.push_back(link.node);
    }
  }
  return false;
}

}  // namespace photonsim
