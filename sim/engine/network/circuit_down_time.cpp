#include "sim/engine/network/circuit_down_time.h"

#include <algorithm>
#include <stdexcept>

namespace photonsim {

namespace {

bool meets(const DownInterval& d, Time from, Time until) { return d.from < until && from < d.until; }

}  // namespace

CircuitDownTime::CircuitDownTime(std::vector<EntryInterval> raw) : raw_(std::move(raw)) {
  std::sort(raw_.begin(), raw_.end(), [](const EntryInterval& a, const EntryInterval& b) {
    if (a.span.from != b.span.from) return a.span.from < b.span.from;
    return a.entry < b.entry;
  });
  for (const EntryInterval& r : raw_) {
    if (!merged_.empty() && r.span.from <= merged_.back().until) {
      merged_.back().until = std::max(merged_.back().until, r.span.until);
    } else {
      merged_.push_back(r.span);
    }
  }
}

const DownInterval* CircuitDownTime::first_meeting(Time from, Time until) const {
  // Few intervals per circuit: a scan.
  for (const DownInterval& d : merged_) {
    if (d.from >= until) return nullptr;
    if (meets(d, from, until)) return &d;
  }
  return nullptr;
}

uint32_t CircuitDownTime::entry_meeting(Time from, Time until) const {
  uint32_t best = UINT32_MAX;
  for (const EntryInterval& r : raw_) {
    if (meets(r.span, from, until)) best = std::min(best, r.entry);
  }
  if (best == UINT32_MAX) throw std::logic_error("CircuitDownTime: no failure meets the span");
  return best;
}

const DownInterval* CircuitDownTime::known_down_at(Time now, Time detection) const {
  for (const DownInterval& d : merged_) {
    if (d.from > now) return nullptr;
    // x + detection saturates: a detection past the time range is never reached.
    const Time known = d.from > Time::max() - detection ? Time::max() : d.from + detection;
    if (known <= now && now < d.until) return &d;
  }
  return nullptr;
}

const DownInterval* CircuitDownTime::down_at(Time now) const {
  for (const DownInterval& d : merged_) {
    if (d.from > now) return nullptr;
    if (now < d.until) return &d;
  }
  return nullptr;
}

std::optional<uint32_t> CircuitDownTime::entry_forever() const {
  std::optional<uint32_t> best;
  for (const EntryInterval& r : raw_) {
    if (r.span.until == Time::max() && (!best || r.entry < *best)) best = r.entry;
  }
  return best;
}

}  // namespace photonsim
