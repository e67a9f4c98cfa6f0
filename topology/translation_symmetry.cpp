#include "topology/translation_symmetry.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace photonsim {

namespace {

// Every ordered factorization of n into factors >= 2, fewest factors first
// (n itself first), then lexicographically.
std::vector<std::vector<int>> ordered_factorizations(int n) {
  std::vector<std::vector<int>> all;
  std::vector<int> current;
  std::function<void(int, size_t)> extend = [&](int rest, size_t parts) {
    if (current.size() + 1 == parts) {
      if (rest >= 2) {
        current.push_back(rest);
        all.push_back(current);
        current.pop_back();
      }
      return;
    }
    for (int f = 2; f <= rest / 2; ++f) {
      if (rest % f != 0) continue;
      current.push_back(f);
      extend(rest / f, parts);
      current.pop_back();
    }
  };
  int max_parts = 0;
  for (int m = n; m > 1; m /= 2) ++max_parts;
  for (size_t parts = 1; parts <= static_cast<size_t>(max_parts); ++parts) extend(n, parts);
  return all;
}

}  // namespace

TranslationSymmetry::TranslationSymmetry(const Topology& topology, std::vector<int> radices)
    : radices_(std::move(radices)),
      strides_(radices_.size(), 1),
      edges_(topology.edges()),
      out_begin_(static_cast<size_t>(topology.gpus()) + 1, 0) {
  for (size_t i = radices_.size(); i-- > 1;) strides_[i - 1] = strides_[i] * radices_[i];
  for (const Edge& e : edges_) ++out_begin_[e.first + 1];
  for (size_t u = 1; u < out_begin_.size(); ++u) out_begin_[u] += out_begin_[u - 1];
}

std::optional<TranslationSymmetry> TranslationSymmetry::find(const Topology& topology, const DemandMatrix& demand) {
  const int n = topology.gpus();
  if (n < 2 || demand.gpus() != n) return std::nullopt;
  for (std::vector<int>& radices : ordered_factorizations(n)) {
    TranslationSymmetry candidate(topology, std::move(radices));
    bool works = true;
    for (size_t digit = 0; works && digit < candidate.radices_.size(); ++digit) {
      works = candidate.keeps_circuits(digit) && candidate.keeps(demand, digit);
    }
    if (works) return candidate;
  }
  return std::nullopt;
}

Node TranslationSymmetry::translate(Node u, Node s) const {
  Node out = 0;
  for (size_t i = 0; i < radices_.size(); ++i) {
    const Node stride = static_cast<Node>(strides_[i]);
    const Node radix = static_cast<Node>(radices_[i]);
    out += (u / stride % radix + s / stride % radix) % radix * stride;
  }
  return out;
}

Node TranslationSymmetry::subtract(Node u, Node s) const {
  Node out = 0;
  for (size_t i = 0; i < radices_.size(); ++i) {
    const Node stride = static_cast<Node>(strides_[i]);
    const Node radix = static_cast<Node>(radices_[i]);
    out += (u / stride % radix + radix - s / stride % radix) % radix * stride;
  }
  return out;
}

Node TranslationSymmetry::step(Node u, size_t digit) const {
  const Node stride = static_cast<Node>(strides_[digit]);
  const Node radix = static_cast<Node>(radices_[digit]);
  const Node d = u / stride % radix;
  return d + 1 == radix ? u - d * stride : u + stride;
}

std::pair<uint32_t, uint32_t> TranslationSymmetry::circuits(Node tail, Node head) const {
  const auto first = edges_.begin() + out_begin_[tail];
  const auto last = edges_.begin() + out_begin_[tail + 1];
  const auto range = std::equal_range(first, last, Edge{tail, head});
  return {static_cast<uint32_t>(range.first - edges_.begin()), static_cast<uint32_t>(range.second - edges_.begin())};
}

uint32_t TranslationSymmetry::translate_edge(uint32_t e, Node s) const {
  const auto [tail, head] = edges_[e];
  const uint32_t rank = e - circuits(tail, head).first;
  return circuits(translate(tail, s), translate(head, s)).first + rank;
}

bool TranslationSymmetry::keeps_circuits(size_t digit) const {
  // The translation is a bijection on nodes, so it maps the circuits onto
  // themselves iff every run of parallel circuits lands on a run as long.
  for (size_t e = 0; e < edges_.size();) {
    const auto [tail, head] = edges_[e];
    const auto [first, last] = circuits(tail, head);
    const auto [image_first, image_last] = circuits(step(tail, digit), step(head, digit));
    if (image_last - image_first != last - first) return false;
    e = last;
  }
  return true;
}

bool TranslationSymmetry::keeps(const DemandMatrix& demand, size_t digit) const {
  const Node n = static_cast<Node>(out_begin_.size() - 1);
  for (Node s = 0; s < n; ++s) {
    const Node image_s = step(s, digit);
    for (Node t = 0; t < n; ++t) {
      if (s != t && demand.at(image_s, step(t, digit)) != demand.at(s, t)) return false;
    }
  }
  return true;
}

}  // namespace photonsim
