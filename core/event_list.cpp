#include "core/event_list.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace photonsim {

namespace {
constexpr size_t kArity = 4;
}

// A reserved event handed over after later ones: its place among those not yet fired.
void EventList::Bucket::insert_reserved(const Pending& p) {
  const size_t cls = p.order >> kClassShift;
  std::vector<Pending>& list = fifo[cls];
  const auto place = std::upper_bound(list.begin() + next[cls], list.end(), p.order,
                                      [](uint64_t order, const Pending& q) { return order < q.order; });
  list.insert(place, p);
}

uint32_t EventList::open_bucket(Time at) {
  const uint32_t id = buckets_.open(at);
  heads_.push_back(Head{at.picoseconds(), id});
  sift_up(heads_.size() - 1);
  return id;
}

void EventList::close_front_bucket() {
  const uint32_t id = heads_.front().bucket;
  Bucket& b = buckets_[id];
  for (int c = 0; c < 2; ++c) {
    b.fifo[c].clear();
    b.next[c] = 0;
  }
  buckets_.close(id);
  heads_.front() = heads_.back();
  heads_.pop_back();
  if (!heads_.empty()) sift_down(0);
}

void EventList::throw_scheduled_in_past(Time at) const {
  throw std::logic_error("event scheduled in the past: " + format_time(at) + " < now " + format_time(now_));
}

bool EventList::step() {
  if (pending_ == 0) return false;
  const uint32_t id = heads_.front().bucket;
  Bucket& b = buckets_[id];
  now_ = buckets_.at(id);
  const int cls = b.next[0] < b.fifo[0].size() ? 0 : 1;
  const Pending event = b.fifo[cls][b.next[cls]++];
  --pending_;
  ++fired_;
  // The handler may add buckets (moving `b`), but never one earlier than
  // this: the front bucket is still this one afterwards.
  try {
    event.handler->on_event(now_, event.token);
  } catch (...) {
    if (buckets_[id].exhausted()) close_front_bucket();
    throw;
  }
  if (buckets_[id].exhausted()) close_front_bucket();
  return true;
}

void EventList::run(Time until) {
  while (pending_ != 0 && Time::ps(heads_.front().at) <= until) step();
}

void EventList::sift_up(size_t i) {
  const Head moving = heads_[i];
  while (i > 0) {
    const size_t parent = (i - 1) / kArity;
    if (heads_[parent].at <= moving.at) break;
    heads_[i] = heads_[parent];
    i = parent;
  }
  heads_[i] = moving;
}

void EventList::sift_down(size_t i) {
  const size_t n = heads_.size();
  Head* const heap = heads_.data();
  const Head moving = heap[i];
  for (;;) {
    const size_t first = i * kArity + 1;
    if (first >= n) break;
    size_t best = first;
    const size_t last = std::min(first + kArity, n);
    for (size_t c = first + 1; c < last; ++c) best = heap[c].at < heap[best].at ? c : best;
    if (!(heap[best].at < moving.at)) break;
    heap[i] = heap[best];
    i = best;
  }
  heap[i] = moving;
}

}  // namespace photonsim
