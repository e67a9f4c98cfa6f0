#include "schedules/alltoall/degree_k/degree_k_sequence_arrangement.h"

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace photonsim {

namespace {

struct Search {
  std::vector<std::vector<int>> left;       // [member][generator]
  std::vector<int> length;                  // per member
  std::vector<size_t> by_length;            // members, longest first
  std::vector<std::vector<int>> sequences;  // built so far
  int longest = 0;
  int budget = 0;

  bool hop(int h) {
    if (h == longest) return true;
    const size_t generators = left.front().size();
    std::vector<int> demand(generators, 0);
    for (const std::vector<int>& l : left) {
      for (size_t g = 0; g < generators; ++g) demand[g] += l[g];
    }
    for (int d : demand) {
      if (d > longest - h) return false;
    }
    std::vector<size_t> preferred(generators);
    std::iota(preferred.begin(), preferred.end(), size_t{0});
    std::stable_sort(preferred.begin(), preferred.end(), [&](size_t a, size_t b) { return demand[a] > demand[b]; });
    std::vector<char> taken(generators, 0);
    return member(h, 0, preferred, taken);
  }

  bool member(int h, size_t index, const std::vector<size_t>& preferred, std::vector<char>& taken) {
    if (index == by_length.size() || length[by_length[index]] <= h) return hop(h + 1);
    const size_t j = by_length[index];
    for (size_t g : preferred) {
      if (taken[g] != 0 || left[j][g] == 0) continue;
      if (--budget < 0) return false;
      taken[g] = 1;
      --left[j][g];
      sequences[j].push_back(static_cast<int>(g));
      if (member(h, index + 1, preferred, taken)) return true;
      sequences[j].pop_back();
      ++left[j][g];
      taken[g] = 0;
    }
    return false;
  }
};

}  // namespace

std::optional<std::vector<std::vector<int>>> arrange_sequences(const std::vector<std::vector<int>>& counts,
                                                               int budget) {
  if (counts.empty()) return std::vector<std::vector<int>>{};
  Search search;
  search.left = counts;
  for (const std::vector<int>& c : counts) search.length.push_back(std::accumulate(c.begin(), c.end(), 0));
  search.by_length.resize(counts.size());
  std::iota(search.by_length.begin(), search.by_length.end(), size_t{0});
  std::stable_sort(search.by_length.begin(), search.by_length.end(),
                   [&](size_t a, size_t b) { return search.length[a] > search.length[b]; });
  search.longest = search.length[search.by_length.front()];
  search.sequences.resize(counts.size());
  search.budget = budget;
  if (!search.hop(0)) return std::nullopt;
  return search.sequences;
}

}  // namespace photonsim
