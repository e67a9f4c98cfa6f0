#pragma once
// Contract: the orderings that let several reference-node paths share one
// round of a circulant schedule (DegreeKReferencePacker). Each member is a
// multiset of generators, counts[j][g] times generator g (its length is the
// total); the result gives every member a sequence of exactly those
// generators such that no two members use the same generator at the same hop
// index, or nothing when the search finds none within `budget` steps.
// Depth-first over hop indices: at each index every member still travelling
// takes a distinct generator it has left, the generator with the most
// remaining demand first; an index is abandoned as soon as some generator is
// wanted more often than hop indices remain.
#include <optional>
#include <vector>

namespace photonsim {

std::optional<std::vector<std::vector<int>>> arrange_sequences(const std::vector<std::vector<int>>& counts, int budget);

}  // namespace photonsim
