#include "core/event_list.h"

#include <stdexcept>
#include <string>

namespace photonsim {

namespace {
constexpr size_t kArity = 4;
}

void EventList::schedule(Time at, EventHandler& handler, uint64_t token, EventPriority priority) {
  schedule_reserved(at, handler, token, reserve(priority));
}

void EventList::schedule_reserved(Time at, EventHandler& handler, uint64_t token, uint64_t reserved) {
  if (at < now_) {
    throw std::logic_error("event scheduled in the past: " + format_time(at) + " < now " +
                           format_time(now_));
  }
  heap_.push_back(Entry{at, reserved, &handler, token});
  sift_up(heap_.size() - 1);
}

bool EventList::step() {
  if (heap_.empty()) return false;
  Entry top = heap_.front();
  heap_.front() = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0);
  now_ = top.at;
  ++fired_;
  top.handler->on_event(now_, top.token);
  return true;
}

void EventList::run(Time until) {
  while (!heap_.empty() && heap_.front().at <= until) step();
}

void EventList::sift_up(size_t i) {
  Entry moving = heap_[i];
  while (i > 0) {
    size_t parent = (i - 1) / kArity;
    if (!moving.before(heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = moving;
}

void EventList::sift_down(size_t i) {
  const size_t n = heap_.size();
  Entry moving = heap_[i];
  for (;;) {
    size_t first = i * kArity + 1;
    if (first >= n) break;
    size_t best = first;
    size_t last = first + kArity < n ? first + kArity : n;
    for (size_t c = first + 1; c < last; ++c) {
      if (heap_[c].before(heap_[best])) best = c;
    }
    if (!heap_[best].before(moving)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = moving;
}

}  // namespace photonsim
