#include "sim/engine/network/in_flight_peak.h"

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace photonsim {

namespace {

// Sorts v whose halves [0, split) and [split, end) come (each, typically)
// sorted already, as trains record their progressions in time order: a merge
// then, a sort only of a half that is not.
template <typename T>
void sort_halves(std::vector<T>& v, size_t split, std::vector<T>& spare) {
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(split);
  if (!std::is_sorted(v.begin(), mid)) std::sort(v.begin(), mid);
  if (!std::is_sorted(mid, v.end())) std::sort(mid, v.end());
  if (split == 0 || split == v.size() || !(*mid < *(mid - 1))) return;
  spare.resize(v.size());
  std::merge(v.begin(), mid, mid, v.end(), spare.begin());
  v.swap(spare);
}

// A progression's first instant first + k * period at or after t, for first
// <= t <= its last instant: no intermediate passes that last, so none overflows.
int64_t first_from(int64_t first, int64_t period, int64_t t) {
  if (period == 0) return first;
  const int64_t k = (t - first) / period + ((t - first) % period != 0 ? 1 : 0);
  return first + k * period;
}

// Lets a buffer go when the records just settled used little of it (an
// earlier, larger batch grew it), else keeps it for the next batch.
template <typename T>
void recycle(std::vector<T>& v) {
  if (v.capacity() > 4 * v.size() + 1024) {
    std::vector<T>().swap(v);
  } else {
    v.clear();
  }
}

}  // namespace

void InFlightPeak::record(std::vector<Progression>& to, Time first, Time period, uint32_t count, uint32_t copies) {
  if (count == 0 || copies == 0) return;
  if (count == 1) period = Time::zero();
  if (!to.empty()) {
    Progression& last = to.back();
    if (last.first == first && last.period == period && last.count == count && last.copies <= UINT32_MAX - copies) {
      last.copies += copies;
      return;
    }
  }
  to.push_back({first, period, count, copies});
}

void InFlightPeak::settle() {
  if (cuts_.empty() && deliveries_.empty()) return;
  peak_ = std::max(peak_, sweep(cuts_, deliveries_, scratch_));
  recycle(cuts_);
  recycle(deliveries_);
  recycle(scratch_.runs);
  recycle(scratch_.starts);
  recycle(scratch_.ends);
  recycle(scratch_.merged);
  recycle(scratch_.active);
  recycle(scratch_.place);
  recycle(scratch_.instants);
}

uint64_t InFlightPeak::peak() const {
  if (cuts_.empty() && deliveries_.empty()) return peak_;
  Scratch scratch;
  return std::max(peak_, sweep(cuts_, deliveries_, scratch));
}

uint64_t InFlightPeak::sweep(const std::vector<Progression>& cuts, const std::vector<Progression>& deliveries,
                             Scratch& scratch) {
  // Windows between the times a progression starts or ends: inside one the
  // same progressions run throughout. When their periods have a common
  // multiple Q no longer than the window, the window repeats itself every Q,
  // shifted by the packets cut less those delivered in one Q, so its peak is
  // in its first or last full Q or its partial end: one Q's instants, sorted,
  // are enough. Otherwise (or when it holds few instants) its instants are
  // taken one by one.
  std::vector<Run>& runs = scratch.runs;
  runs.clear();
  for (const Progression& p : cuts) {
    runs.push_back({p.first.picoseconds(), p.period.picoseconds(), (p.first + p.period * (p.count - 1)).picoseconds(),
                    static_cast<int64_t>(p.copies)});
  }
  const size_t cut_runs = runs.size();
  for (const Progression& p : deliveries) {
    runs.push_back({p.first.picoseconds(), p.period.picoseconds(), (p.first + p.period * (p.count - 1)).picoseconds(),
                    -static_cast<int64_t>(p.copies)});
  }
  // Boundaries sorted by time; a run is in the window [t, next) when first <= t and last >= next - 1.
  std::vector<Boundary>& starts = scratch.starts;
  // At last + 1; an instant at INT64_MAX itself falls in no window, which
  // loses no cut (its train's end, a period later, would pass the range).
  std::vector<Boundary>& ends = scratch.ends;
  starts.clear();
  ends.clear();
  for (uint32_t i = 0; i < runs.size(); ++i) {
    starts.emplace_back(runs[i].first, i);
    ends.emplace_back(runs[i].last == INT64_MAX ? INT64_MAX : runs[i].last + 1, i);
  }
  sort_halves(starts, cut_runs, scratch.merged);
  sort_halves(ends, cut_runs, scratch.merged);
  std::vector<uint32_t>& active = scratch.active;
  std::vector<uint32_t>& place = scratch.place;
  std::vector<Instant>& instants = scratch.instants;
  active.clear();
  place.assign(runs.size(), 0);
  int64_t live = 0;
  int64_t peak = 0;
  size_t s = 0;
  size_t e = 0;
  auto sweep_sorted = [&](int64_t value) {
    // `instants` sorted: the live count after them from `value`, raising peak on the way.
    for (const Instant& i : instants) {
      value += i.weight;
      if (i.weight > 0) peak = std::max(peak, value);
    }
    return value;
  };
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
    const int64_t length = t1 - t0;
    // The instants the window holds, and the periods' least common multiple
    // q (0 once past the window or when a run is a single instant).
    int64_t total = 0;
    int64_t q = 1;
    for (const uint32_t i : active) {
      const Run& r = runs[i];
      if (r.period == 0) {
        q = 0;
        ++total;
        continue;
      }
      const int64_t to = std::min(r.last, t1 - 1);
      const int64_t from = first_from(r.first, r.period, t0);
      if (to >= from) total += (to - from) / r.period + 1;
      if (q != 0) {
        const int64_t g = std::gcd(q, r.period);
        if (__builtin_mul_overflow(q / g, r.period, &q) || q > length) q = 0;
      }
    }
    instants.clear();
    int64_t per_q = 0;  // instants in one q
    if (q != 0) {
      for (const uint32_t i : active) per_q += q / runs[i].period;
    }
    if (q == 0 || total <= 4 * per_q) {
      for (const uint32_t i : active) {
        const Run& r = runs[i];
        const int64_t to = std::min(r.last, t1 - 1);
        int64_t at = first_from(r.first, r.period, t0);
        if (r.period == 0) {
          if (at >= t0 && at <= to) instants.push_back({at, r.weight});
          continue;
        }
        for (; at <= to; at += r.period) {
          instants.push_back({at, r.weight});
          if (to - at < r.period) break;  // the next would pass `to` (and perhaps int64)
        }
      }
      std::sort(instants.begin(), instants.end());
      live = sweep_sorted(live);
      continue;
    }
    // One q from t0: each run's instants in it, as offsets from t0.
    int64_t drift = 0;
    for (const uint32_t i : active) {
      const Run& r = runs[i];
      const int64_t from = first_from(r.first, r.period, t0) - t0;
      for (int64_t at = from;; at += r.period) {  // from < period <= q
        instants.push_back({at, r.weight});
        if (q - 1 - at < r.period) break;  // the next would pass q (and perhaps int64)
      }
      drift += r.weight * (q / r.period);
    }
    std::sort(instants.begin(), instants.end());
    int64_t best = INT64_MIN;  // the highest value just after a cut, within one q
    int64_t value = 0;
    for (const Instant& i : instants) {
      value += i.weight;
      if (i.weight > 0) best = std::max(best, value);
    }
    const int64_t full = length / q;
    const int64_t rest = length % q;
    if (best != INT64_MIN) peak = std::max(peak, live + (drift > 0 ? full - 1 : 0) * drift + best);
    // The partial q at the end.
    int64_t partial = live + full * drift;
    for (const Instant& i : instants) {
      if (i.when >= rest) break;
      partial += i.weight;
      if (i.weight > 0) peak = std::max(peak, partial);
    }
    live = partial;
  }
  return static_cast<uint64_t>(peak);
}

}  // namespace photonsim
