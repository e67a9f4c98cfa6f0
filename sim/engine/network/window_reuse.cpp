#include "sim/engine/network/window_reuse.h"

namespace photonsim {

size_t WindowReuse::KeyHash::operator()(const Key& key) const {
  // FNV-1a over the words, then a final mix: keys differ in few words.
  uint64_t h = 1469598103934665603ULL;
  for (const int64_t word : key) {
    h ^= static_cast<uint64_t>(word);
    h *= 1099511628211ULL;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return static_cast<size_t>(h);
}

const WindowRecord* WindowReuse::find(const Key& key) const {
  const auto it = records_.find(key);
  return it == records_.end() ? nullptr : &it->second;
}

bool WindowReuse::seen_before(const Key& key) { return !seen_.insert(KeyHash{}(key)).second; }

void WindowReuse::store(Key key, WindowRecord record) { records_.emplace(std::move(key), std::move(record)); }

}  // namespace photonsim
