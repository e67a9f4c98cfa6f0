#pragma once
// Contract: exact reuse's memory (issue 54, item 2). A closed window
// (FlowSpec::window) that starts on idle circuits, with nothing else under
// way on them, moves exactly as any earlier window with the same key: the
// same flows (bytes, route, relative place in the egress order) over circuits
// in the same state (lit, ends, port, rate). Nothing else enters its circuits
// until it ends (the injector's promise; the data plane checks it), so what it
// did, relative to its start, is a function of the key alone: when each flow
// was delivered, in which order, and the cut and delivery progressions of its
// trains (its share of the packets in flight). Keys are compared whole (the
// hash only finds them), so a reuse is never a guess.
//
// A key is recorded at its first sight and reused from its second on, while
// the keys recorded at first sight hold under kFirstSightWords words; past
// that budget a new key is first only seen (its hash kept: 8 bytes), then
// recorded at its second sight: a run whose windows never repeat keeps at
// most the budget's records.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/time.h"

namespace photonsim {

struct WindowRecord {
  struct Progression {
    Time first;  // from the window's start
    Time period;
    uint32_t count;
    uint32_t copies;  // identical progressions recorded one after another
  };
  // (the flow's index in the window, by id; its delivery from the start), in
  // the order the flows were delivered.
  std::vector<std::pair<uint32_t, Time>> deliveries;
  std::vector<Progression> cuts;
  std::vector<Progression> landed;  // the last hop's deliveries, packet by packet
};

class WindowReuse {
 public:
  using Key = std::vector<int64_t>;

  // FNV-1a over a key's words, then a final mix (keys differ in few words).
  class Hasher {
   public:
    void add(int64_t word) {
      h_ ^= static_cast<uint64_t>(word);
      h_ *= 1099511628211ULL;
    }
    uint64_t value() const {
      uint64_t h = h_ ^ (h_ >> 33);
      h *= 0xff51afd7ed558ccdULL;
      return h ^ (h >> 33);
    }

   private:
    uint64_t h_ = 1469598103934665603ULL;
  };
  static uint64_t hash(const Key& key);
  // What an earlier window with this key (of this hash) did (null: none recorded).
  const WindowRecord* find(const Key& key, uint64_t hash) const;
  // Whether a window with this hash was seen before; it is from now on.
  bool seen_before(uint64_t hash) { return !seen_.insert(hash).second; }
  // Whether a window of a new key (of `words` words) is recorded at its
  // first sight: while the keys so recorded hold fewer than
  // kFirstSightWords words, so that a run whose windows never repeat keeps
  // at most that much; beyond it a key is recorded at its second sight.
  bool record_at_first_sight(size_t words) {
    if (first_sight_words_ + words > kFirstSightWords) return false;
    first_sight_words_ += words;
    return true;
  }
  static constexpr size_t kFirstSightWords = size_t{1} << 17;
  void store(Key key, WindowRecord record);
  // Windows replayed from a record.
  uint64_t reused() const { return reused_; }
  void count_reuse() { ++reused_; }

 private:
  // By hash: the keys of that hash (compared whole) and their records.
  std::unordered_map<uint64_t, std::vector<std::pair<Key, WindowRecord>>> records_;
  std::unordered_set<uint64_t> seen_;
  size_t first_sight_words_ = 0;
  uint64_t reused_ = 0;
};

}  // namespace photonsim
