#include "core/spec/reachability.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace photonsim {

Reachability::Reachability(const std::vector<std::vector<uint32_t>>& predecessors, const std::vector<uint32_t>& order)
    : predecessors_(predecessors), order_(order) {
  const size_t n = predecessors.size();
  if (order.size() != n) throw std::logic_error("Reachability: the order must list every node once");
  position_.assign(n, 0);
  for (uint32_t k = 0; k < n; ++k) position_[order[k]] = k;
  level_.assign(n, 0);
  std::vector<std::vector<uint32_t>> successors(n);
  for (uint32_t v : order) {
    for (uint32_t p : predecessors[v]) {
      level_[v] = std::max(level_[v], level_[p] + 1);
      successors[p].push_back(v);
    }
  }
  label(successors, false, first_);
  label(successors, true, second_);
  seen_.assign(n, 0);
}

// Post-order ranks of a depth-first traversal along the successors (sources
// in topological order, children in the order given or reversed), each
// node's low the smallest rank below it.
void Reachability::label(const std::vector<std::vector<uint32_t>>& successors, bool reversed,
                         std::vector<Interval>& out) const {
  const size_t n = successors.size();
  out.assign(n, Interval{});
  std::vector<char> visited(n, 0);
  std::vector<std::pair<uint32_t, size_t>> stack;  // node, children taken
  uint32_t rank = 0;
  const auto child = [&](uint32_t v, size_t k) {
    const std::vector<uint32_t>& s = successors[v];
    return reversed ? s[s.size() - 1 - k] : s[k];
  };
  for (size_t k = 0; k < n; ++k) {
    const uint32_t root = order_[reversed ? n - 1 - k : k];
    if (visited[root] != 0 || !predecessors_[root].empty()) continue;
    visited[root] = 1;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      auto& [v, taken] = stack.back();
      if (taken < successors[v].size()) {
        const uint32_t c = child(v, taken++);
        if (visited[c] == 0) {
          visited[c] = 1;
          stack.emplace_back(c, 0);
        }
        continue;
      }
      const uint32_t done = v;
      stack.pop_back();
      Interval& i = out[done];
      i.rank = ++rank;
      i.low = i.rank;
      for (uint32_t s : successors[done]) i.low = std::min(i.low, out[s].low);
    }
  }
}

bool Reachability::may_reach(uint32_t from, uint32_t to) const {
  return position_[from] < position_[to] && level_[from] < level_[to] && first_[to].inside(first_[from]) &&
         second_[to].inside(second_[from]);
}

bool Reachability::reaches(uint32_t from, uint32_t to) {
  if (!may_reach(from, to)) return false;
  if (++query_ == 0) {
    std::fill(seen_.begin(), seen_.end(), 0);
    query_ = 1;
  }
  stack_.clear();
  stack_.push_back(to);
  seen_[to] = query_;
  while (!stack_.empty()) {
    const uint32_t w = stack_.back();
    stack_.pop_back();
    for (uint32_t p : predecessors_[w]) {
      if (p == from) return true;
      if (seen_[p] == query_) continue;
      seen_[p] = query_;
      if (may_reach(from, p)) stack_.push_back(p);
    }
  }
  return false;
}

}  // namespace photonsim
