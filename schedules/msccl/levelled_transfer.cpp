#include "schedules/msccl/levelled_transfer.h"

#include <algorithm>
#include <tuple>

namespace photonsim {

std::vector<std::vector<Transfer>> by_level(const std::vector<LevelledTransfer>& transfers) {
  int64_t levels = 0;
  for (const LevelledTransfer& t : transfers) levels = std::max(levels, t.level + 1);
  std::vector<std::vector<const LevelledTransfer*>> grouped(static_cast<size_t>(levels));
  for (const LevelledTransfer& t : transfers) grouped[static_cast<size_t>(t.level)].push_back(&t);
  std::vector<std::vector<Transfer>> out;
  for (auto& level : grouped) {
    if (level.empty()) continue;
    const auto key = [](const LevelledTransfer* t) {
      return std::make_tuple(t->transfer.src, t->transfer.dst, t->connection, t->transfer.op);
    };
    std::stable_sort(level.begin(), level.end(),
                     [&](const LevelledTransfer* a, const LevelledTransfer* b) { return key(a) < key(b); });
    std::vector<Transfer> merged;
    for (size_t i = 0; i < level.size(); ++i) {
      const Transfer& t = level[i]->transfer;
      if (i > 0 && key(level[i - 1]) == key(level[i])) {
        merged.back().blocks.insert(merged.back().blocks.end(), t.blocks.begin(), t.blocks.end());
      } else {
        merged.push_back(t);
      }
    }
    out.push_back(std::move(merged));
  }
  return out;
}

}  // namespace photonsim
