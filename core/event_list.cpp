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
  throw std::logic_error("event scheduled in the past: " + format_time(at) + " < now " + format_time(now_));
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
  // The winner among four children is found by a tournament of conditional
  // moves: which child is earliest is data-dependent and unpredictable, so
  // branches here cost a misprediction per level.
  const size_t n = heap_.size();
  Entry* const heap = heap_.data();
  const Entry moving = heap[i];
  const Entry::Key moving_key = moving.key();
  for (;;) {
    const size_t first = i * kArity + 1;
    if (first >= n) break;
    size_t best = first;
    Entry::Key best_key = heap[first].key();
    if (first + kArity <= n) {
      const Entry::Key k1 = heap[first + 1].key();
      const Entry::Key k2 = heap[first + 2].key();
      const Entry::Key k3 = heap[first + 3].key();
      const bool right_pair = k3 < k2;
      const size_t pair_best = right_pair ? first + 3 : first + 2;
      const Entry::Key pair_key = right_pair ? k3 : k2;
      const bool second = k1 < best_key;
      best = second ? first + 1 : best;
      best_key = second ? k1 : best_key;
      const bool from_pair = pair_key < best_key;
      best = from_pair ? pair_best : best;
      best_key = from_pair ? pair_key : best_key;
    } else {
      for (size_t c = first + 1; c < n; ++c) {
        const Entry::Key k = heap[c].key();
        if (k < best_key) {
          best = c;
          best_key = k;
        }
      }
    }
    if (!(best_key < moving_key)) break;
    heap[i] = heap[best];
    i = best;
  }
  heap[i] = moving;
}

}  // namespace photonsim
