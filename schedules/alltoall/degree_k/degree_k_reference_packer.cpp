#include "schedules/alltoall/degree_k/degree_k_reference_packer.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

#include "core/error.h"
#include "schedules/alltoall/degree_k/degree_k_sequence_arrangement.h"
#include "core/shuffle.h"
#include "topology/breadth_first_search.h"

namespace photonsim {

namespace {

uint64_t saturating_add(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max() : a + b;
}

// One destination's candidates while packing: its shortest sequences and
// their distinct generator multisets (counts per generator).
struct Destination {
  int hops = 0;
  std::vector<std::vector<int>> sequences;
  std::vector<std::vector<int>> multisets;
};

// A round being filled: bit (hop * generators + generator) marks a used
// (hop index, generator) slot.
struct OpenRound {
  std::vector<uint64_t> used;
  int hops = 0;
  int size = 0;
  std::vector<std::pair<size_t, std::vector<int>>> placed;  // (destination, sequence)
};

bool reference_packer_fits(const OpenRound& round, const std::vector<int>& sequence, size_t generators) {
  for (size_t h = 0; h < sequence.size(); ++h) {
    const size_t bit = h * generators + static_cast<size_t>(sequence[h]);
    if (bit / 64 < round.used.size() && ((round.used[bit / 64] >> (bit % 64)) & 1U) != 0) return false;
  }
  return true;
}

void take(OpenRound& round, const std::vector<int>& sequence, size_t generators) {
  for (size_t h = 0; h < sequence.size(); ++h) {
    const size_t bit = h * generators + static_cast<size_t>(sequence[h]);
    if (bit / 64 >= round.used.size()) round.used.resize(bit / 64 + 1, 0);
    round.used[bit / 64] |= uint64_t{1} << (bit % 64);
  }
  round.hops = std::max(round.hops, static_cast<int>(sequence.size()));
  ++round.size;
}

// Adds destination d to the round, keeping its members' sequences when one
// of d's fits, else arranging every member's sequence again from the
// multisets (up to kMultisetCombinations choices of them).
bool add_to(OpenRound& round, size_t d, const std::vector<Destination>& destinations, size_t generators,
            bool rearrange) {
  for (const std::vector<int>& sequence : destinations[d].sequences) {
    if (reference_packer_fits(round, sequence, generators)) {
      take(round, sequence, generators);
      round.placed.push_back({d, sequence});
      return true;
    }
  }
  if (!rearrange) return false;
  std::vector<size_t> members;
  for (const auto& placed : round.placed) members.push_back(placed.first);
  members.push_back(d);
  std::vector<size_t> choice(members.size(), 0);  // multiset per member, an odometer
  std::vector<std::vector<int>> counts(members.size());
  for (int combination = 0; combination < DegreeKReferencePacker::kMultisetCombinations; ++combination) {
    for (size_t j = 0; j < members.size(); ++j) counts[j] = destinations[members[j]].multisets[choice[j]];
    std::optional<std::vector<std::vector<int>>> sequences =
        arrange_sequences(counts, DegreeKReferencePacker::kArrangeBudget);
    if (sequences) {
      round = OpenRound{};
      for (size_t j = 0; j < members.size(); ++j) {
        take(round, (*sequences)[j], generators);
        round.placed.push_back({members[j], std::move((*sequences)[j])});
      }
      return true;
    }
    size_t j = 0;
    while (j < members.size() && ++choice[j] == destinations[members[j]].multisets.size()) choice[j++] = 0;
    if (j == members.size()) break;  // every combination tried
  }
  return false;
}

// One greedy first-fit pass over the destinations in `order`.
std::vector<OpenRound> first_fit(const std::vector<Destination>& destinations, const std::vector<size_t>& order,
                                 size_t generators, bool rearrange) {
  std::vector<OpenRound> rounds;
  for (size_t d : order) {
    bool placed = false;
    for (size_t r = 0; r < rounds.size() && !placed; ++r) {
      if (rounds[r].size == static_cast<int>(generators)) continue;  // every hop-0 slot taken
      placed = add_to(rounds[r], d, destinations, generators, rearrange);
    }
    if (!placed) {
      rounds.emplace_back();
      take(rounds.back(), destinations[d].sequences.front(), generators);
      rounds.back().placed.push_back({d, destinations[d].sequences.front()});
    }
  }
  return rounds;
}

int64_t cost_of(const std::vector<OpenRound>& rounds) {
  int64_t sum = 0;
  for (const OpenRound& r : rounds) sum += r.hops;
  return sum;
}

}  // namespace

DegreeKReferencePacker::DegreeKReferencePacker(int gpus, std::vector<int> generators)
    : gpus_(gpus), generators_(std::move(generators)) {
  if (gpus_ < 2) throw Error("circulant reference packer: needs at least 2 GPUs, got " + std::to_string(gpus_));
  if (generators_.empty()) throw Error("circulant reference packer: no generators");
  std::vector<int> sorted = generators_;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] < 1 || sorted[i] >= gpus_ || (i > 0 && sorted[i] == sorted[i - 1])) {
      throw Error("circulant reference packer: generators must be distinct and in 1.." + std::to_string(gpus_ - 1) +
                  ", got " + std::to_string(sorted[i]));
    }
  }
  BreadthFirstSearch search(circulant_successor_lists(gpus_, generators_));
  search.run(0);
  distance_ = search.distances();
  count_ = search.path_counts();
}

int DegreeKReferencePacker::offset_of(const std::vector<int>& sequence) const {
  int offset = 0;
  for (int j : sequence) offset = (offset + generators_[static_cast<size_t>(j)]) % gpus_;
  return offset;
}

int64_t DegreeKReferencePacker::hop_bound(const std::vector<int>& offsets) const {
  std::vector<int> lengths;
  lengths.reserve(offsets.size());
  for (int o : offsets) lengths.push_back(hops(o));
  std::sort(lengths.begin(), lengths.end(), std::greater<>());
  int64_t bound = 0;
  for (size_t i = 0; i < lengths.size(); i += generators_.size()) bound += lengths[i];
  return bound;
}

void DegreeKReferencePacker::collect_all(int offset, std::vector<int>& reversed,
                                         std::vector<std::vector<int>>& out) const {
  if (offset == 0) {
    out.emplace_back(reversed.rbegin(), reversed.rend());
    return;
  }
  for (size_t j = 0; j < generators_.size(); ++j) {
    const int before = (offset - generators_[j] + gpus_) % gpus_;
    if (distance_[static_cast<size_t>(before)] != hops(offset) - 1) continue;
    reversed.push_back(static_cast<int>(j));
    collect_all(before, reversed, out);
    reversed.pop_back();
  }
}

std::vector<int> DegreeKReferencePacker::sample(int offset, Rng& rng) const {
  // Walk back choosing each last generator in proportion to the sequences
  // that end with it: every shortest sequence is equally likely.
  std::vector<int> reversed;
  while (offset != 0) {
    const uint64_t draw = rng.uniform(count_[static_cast<size_t>(offset)]);
    uint64_t cumulative = 0;
    int chosen = -1, before_chosen = 0;
    for (size_t j = 0; j < generators_.size(); ++j) {
      const int before = (offset - generators_[j] + gpus_) % gpus_;
      if (distance_[static_cast<size_t>(before)] != hops(offset) - 1) continue;
      chosen = static_cast<int>(j);
      before_chosen = before;
      cumulative = saturating_add(cumulative, count_[static_cast<size_t>(before)]);
      if (draw < cumulative) break;
    }
    reversed.push_back(chosen);
    offset = before_chosen;
  }
  return {reversed.rbegin(), reversed.rend()};
}

std::vector<std::vector<int>> DegreeKReferencePacker::shortest_sequences(int offset, Rng& rng) const {
  if (offset <= 0 || offset >= gpus_ || hops(offset) < 0) {
    throw Error("circulant reference packer: offset " + std::to_string(offset) +
                " is not reachable on a circulant of " + std::to_string(gpus_) + " GPUs");
  }
  std::vector<std::vector<int>> out;
  if (count_[static_cast<size_t>(offset)] <= kSequenceCap) {
    std::vector<int> reversed;
    collect_all(offset, reversed, out);
  } else {
    for (size_t i = 0; i < kSequenceCap; ++i) out.push_back(sample(offset, rng));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  shuffle_with(out, rng);
  return out;
}

std::vector<ReferenceRound> DegreeKReferencePacker::pack(const std::vector<int>& offsets, Rng& rng) const {
  std::vector<Destination> destinations;
  destinations.reserve(offsets.size());
  for (int o : offsets) {
    Destination d{hops(o), shortest_sequences(o, rng), {}};
    for (const std::vector<int>& sequence : d.sequences) {
      std::vector<int> counts(generators_.size(), 0);
      for (int j : sequence) ++counts[static_cast<size_t>(j)];
      d.multisets.push_back(std::move(counts));
    }
    std::sort(d.multisets.begin(), d.multisets.end());
    d.multisets.erase(std::unique(d.multisets.begin(), d.multisets.end()), d.multisets.end());
    destinations.push_back(std::move(d));
  }
  const size_t generators = generators_.size();
  const int64_t bound = hop_bound(offsets);

  std::vector<OpenRound> best;
  int64_t best_cost = std::numeric_limits<int64_t>::max();
  std::vector<size_t> order(destinations.size());
  for (int pass = 0; pass < kPasses && best_cost > bound; ++pass) {
    std::iota(order.begin(), order.end(), size_t{0});
    shuffle_with(order, rng);
    const bool longest_first = pass % 2 == 0;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return longest_first ? destinations[a].hops > destinations[b].hops : destinations[a].hops < destinations[b].hops;
    });
    const bool rearrange = (pass / 2) % 2 == 0;
    std::vector<OpenRound> rounds = first_fit(destinations, order, generators, rearrange);
    const int64_t cost = cost_of(rounds);
    if (cost < best_cost) {
      best_cost = cost;
      best = std::move(rounds);
    }
  }

  std::stable_sort(best.begin(), best.end(), [](const OpenRound& a, const OpenRound& b) { return a.hops < b.hops; });
  std::vector<ReferenceRound> out;
  out.reserve(best.size());
  for (const OpenRound& r : best) {
    ReferenceRound round;
    round.hops = r.hops;
    for (const auto& placed : r.placed) round.sequences.push_back(placed.second);
    out.push_back(std::move(round));
  }
  return out;
}

int64_t DegreeKReferencePacker::hop_sum(const std::vector<ReferenceRound>& rounds) {
  int64_t sum = 0;
  for (const ReferenceRound& r : rounds) sum += r.hops;
  return sum;
}

}  // namespace photonsim
