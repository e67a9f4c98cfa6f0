#include "schedules/alltoall/shifted_ring_outlines.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "schedules/alltoall/shifted_ring_strategy.h"

namespace photonsim {

namespace {

// Per offset, the topology serving it with the fewest hops (ties: the earlier).
class OffsetOwners {
 public:
  explicit OffsetOwners(int gpus) : n_(gpus) { clear(); }

  void clear() {
    hops_.assign(static_cast<size_t>(n_), std::numeric_limits<int>::max());
    owner_.assign(static_cast<size_t>(n_), -1);
  }
  // Topology `index` is the s-shifted ring: offset h*s mod n in h hops.
  void add(int index, int shift) {
    const auto n = static_cast<size_t>(n_);
    const auto s = static_cast<size_t>(shift);
    size_t v = s;
    for (int h = 1; v != 0; ++h, v = (v + s) % n) {
      if (h < hops_[v]) {
        hops_[v] = h;
        owner_[v] = index;
      }
    }
  }
  // Rounds in shifted_ring_strategy's order: by topology, then hops.
  std::vector<RoundOutline> rounds(Bytes bytes) const {
    std::vector<RoundOutline> out;
    out.reserve(static_cast<size_t>(n_ - 1));
    for (size_t delta = 1; delta < static_cast<size_t>(n_); ++delta) {
      out.push_back({owner_[delta], hops_[delta], bytes, hops_[delta]});
    }
    std::sort(out.begin(), out.end(), [](const RoundOutline& a, const RoundOutline& b) {
      return a.topology != b.topology ? a.topology < b.topology : a.hops < b.hops;
    });
    return out;
  }

 private:
  int n_;
  std::vector<int> hops_;
  std::vector<int> owner_;
};

bool grew_by_one(const std::vector<int>& previous, const std::vector<int>& next) {
  return next.size() == previous.size() + 1 && std::equal(previous.begin(), previous.end(), next.begin());
}

}  // namespace

void for_each_shifted_ring_outline(const RingShiftSearch& search, Bytes bytes, std::optional<int> only,
                                   const std::function<std::string(int)>& construction,
                                   const std::function<void(StrategyOutline&&)>& visit) {
  const int n = search.gpus();
  auto identity = std::make_shared<std::vector<Node>>(static_cast<size_t>(n));
  for (size_t i = 0; i < identity->size(); ++i) (*identity)[i] = static_cast<Node>(i);
  OffsetOwners owners(n);
  const std::vector<int>* previous = nullptr;
  for (int d = only.value_or(1); d <= (only ? *only : n - 1); ++d) {
    if (d < 1 || d > n - 1) return;
    const std::vector<int>& shifts = search.shifts(d);
    if (previous && grew_by_one(*previous, shifts)) {
      owners.add(d - 1, shifts.back());
    } else {
      owners.clear();
      for (size_t i = 0; i < shifts.size(); ++i) owners.add(static_cast<int>(i), shifts[i]);
    }
    previous = &shifts;
    StrategyOutline outline;
    outline.construction = construction(d);
    outline.configurations = d;
    outline.rounds = owners.rounds(bytes);
    outline.topology = [&shifts, identity](int i) {
      return shifted_ring_topology(shifts[static_cast<size_t>(i)], *identity);
    };
    outline.topology_name = [&shifts](int i) { return shifted_ring_name(shifts[static_cast<size_t>(i)]); };
    visit(std::move(outline));
  }
}

}  // namespace photonsim
