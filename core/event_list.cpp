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

void EventList::throw_scheduled_in_past(Time at) const {
  throw std::logic_error("event scheduled in the past: " + format_time(at) + " < now " +
                         format_time(now_));
}

bool EventList::step() {
  if (heap_.empty()) return false;
  const Entry top = heap_.front();
  now_ = top.at;
  ++fired_;
  root_vacant_ = true;
  try {
    top.handler->on_event(now_, top.token);
  } catch (...) {
    fill_vacant_root();
    throw;
  }
  fill_vacant_root();
  return true;
}

void EventList::fill_vacant_root() {
  if (!root_vacant_) return;
  root_vacant_ = false;
  heap_.front() = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0);
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
