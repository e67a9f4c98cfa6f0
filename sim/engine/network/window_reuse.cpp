#include "sim/engine/network/window_reuse.h"

namespace photonsim {

uint64_t WindowReuse::hash(const Key& key) {
  Hasher hasher;
  for (const int64_t word : key) hasher.add(word);
  return hasher.value();
}

const WindowRecord* WindowReuse::find(const Key& key, uint64_t hash) const {
  const auto it = records_.find(hash);
  if (it == records_.end()) return nullptr;
  for (const auto& [stored, record] : it->second) {
    if (stored == key) return &record;
  }
  return nullptr;
}

void WindowReuse::store(Key key, WindowRecord record) {
  const uint64_t h = hash(key);
  std::vector<std::pair<Key, WindowRecord>>& same_hash = records_[h];
  for (const auto& entry : same_hash) {
    if (entry.first == key) return;  // recorded already (two windows of one key recorded at once)
  }
  same_hash.emplace_back(std::move(key), std::move(record));
}

}  // namespace photonsim
