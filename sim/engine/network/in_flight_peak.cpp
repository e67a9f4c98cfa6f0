#include "sim/engine/network/in_flight_peak.h"

#include <algorithm>
#include <utility>

namespace photonsim {

void InFlightPeak::settle() {
  peak_ = std::max(peak_, sweep(cuts_, deliveries_));
  std::vector<Progression>().swap(cuts_);
  std::vector<Progression>().swap(deliveries_);
}

uint64_t InFlightPeak::peak() const { return std::max(peak_, sweep(cuts_, deliveries_)); }

uint64_t InFlightPeak::sweep(const std::vector<Progression>& cuts, const std::vector<Progression>& deliveries) {
  // Windows between the times a progression starts or ends: inside one the
  // same progressions run throughout. A window whose progressions share one
  // period repeats itself each period, shifted by (cuts - deliveries) per
  // period, so its peak is in its first or last full period or its partial
  // end: one period's instants, sorted, are enough. Otherwise (or when it
  // holds few instants) its instants are taken one by one.
  struct Run {
    int64_t first;
    int64_t period;
    int64_t last;
    int sign;  // +1 cut, -1 delivery
  };
  std::vector<Run> runs;
  runs.reserve(cuts.size() + deliveries.size());
  for (const Progression& p : cuts) {
    if (p.count > 0)
      runs.push_back(
          {p.first.picoseconds(), p.period.picoseconds(), (p.first + p.period * (p.count - 1)).picoseconds(), +1});
  }
  for (const Progression& p : deliveries) {
    if (p.count > 0)
      runs.push_back(
          {p.first.picoseconds(), p.period.picoseconds(), (p.first + p.period * (p.count - 1)).picoseconds(), -1});
  }
  // Boundaries: (time, run, starts) sorted; a run is in the window [t, next) when first <= t and last >= next - 1.
  std::vector<std::pair<int64_t, uint32_t>> starts;
  std::vector<std::pair<int64_t, uint32_t>> ends;  // at last + 1
  for (uint32_t i = 0; i < runs.size(); ++i) {
    starts.emplace_back(runs[i].first, i);
    ends.emplace_back(runs[i].last == INT64_MAX ? INT64_MAX : runs[i].last + 1, i);
  }
  std::sort(starts.begin(), starts.end());
  std::sort(ends.begin(), ends.end());
  std::vector<uint32_t> active;
  std::vector<uint32_t> place(runs.size(), 0);
  // An instant: its time (or offset), then deliveries first, and its sign.
  struct Instant {
    int64_t when;
    int sign;
    bool operator<(const Instant& o) const { return when != o.when ? when < o.when : sign < o.sign; }
  };
  std::vector<Instant> instants;
  int64_t live = 0;
  int64_t peak = 0;
  size_t s = 0;
  size_t e = 0;
  while (s < starts.size() || e < ends.size()) {
    const int64_t t0 =
        std::min(s < starts.size() ? starts[s].first : INT64_MAX, e < ends.size() ? ends[e].first : INT64_MAX);
    while (e < ends.size() && ends[e].first == t0) {
      const uint32_t i = ends[e++].second;
      const uint32_t at = place[i];
      active[at] = active.back();
      place[active[at]] = at;
      active.pop_back();
    }
    while (s < starts.size() && starts[s].first == t0) {
      const uint32_t i = starts[s++].second;
      place[i] = static_cast<uint32_t>(active.size());
      active.push_back(i);
    }
    if (active.empty()) continue;
    const int64_t t1 =
        std::min(s < starts.size() ? starts[s].first : INT64_MAX, e < ends.size() ? ends[e].first : INT64_MAX);
    // Each active run's first instant at or after t0, and how many it has before t1.
    int64_t total = 0;
    bool one_period = true;
    const int64_t period = runs[active.front()].period;
    for (const uint32_t i : active) {
      const Run& r = runs[i];
      if (r.period != period) one_period = false;
      const int64_t from = r.period == 0 ? r.first : r.first + (t0 - r.first + r.period - 1) / r.period * r.period;
      const int64_t to = std::min(r.last, t1 - 1);
      total += r.period == 0 ? (from >= t0 && from <= to ? 1 : 0) : (to >= from ? (to - from) / r.period + 1 : 0);
    }
    const int64_t length = t1 - t0;
    const bool periodic =
        one_period && period > 0 && length >= period && total > 4 * static_cast<int64_t>(active.size());
    instants.clear();
    auto sweep_sorted = [&](int64_t base) {
      // `instants` sorted; returns the live count after them, raising peak on the way.
      int64_t value = base;
      for (const Instant& i : instants) {
        value += i.sign;
        if (i.sign > 0) peak = std::max(peak, value);
      }
      return value;
    };
    if (!periodic) {
      for (const uint32_t i : active) {
        const Run& r = runs[i];
        if (r.period == 0) {
          if (r.first >= t0 && r.first < t1) instants.push_back({r.first, r.sign});
          continue;
        }
        int64_t at = r.first + (t0 - r.first + r.period - 1) / r.period * r.period;
        for (; at < t1 && at <= r.last; at += r.period) {
          instants.push_back({at, r.sign});
          if (r.last - at < r.period) break;  // the next would pass its last (and perhaps int64)
        }
      }
      std::sort(instants.begin(), instants.end());
      live = sweep_sorted(live);
      continue;
    }
    // One period from t0: each run's offset in it.
    int64_t drift = 0;
    for (const uint32_t i : active) {
      const Run& r = runs[i];
      const int64_t from = r.first + (t0 - r.first + period - 1) / period * period;
      instants.push_back({from - t0, r.sign});
      drift += r.sign;
    }
    std::sort(instants.begin(), instants.end());
    int64_t best = INT64_MIN;  // the highest value just after a cut, within one period
    int64_t value = 0;
    for (const Instant& i : instants) {
      value += i.sign;
      if (i.sign > 0) best = std::max(best, value);
    }
    const int64_t full = length / period;
    const int64_t rest = length % period;
    if (best != INT64_MIN) {
      const int64_t q = drift > 0 ? full - 1 : 0;
      peak = std::max(peak, live + q * drift + best);
    }
    // The partial period at the end.
    int64_t partial = live + full * drift;
    for (const Instant& i : instants) {
      if (i.when >= rest) break;
      partial += i.sign;
      if (i.sign > 0) peak = std::max(peak, partial);
    }
    live = partial;
  }
  return static_cast<uint64_t>(peak);
}

}  // namespace photonsim
