#pragma once
// Contract: when the egress ports choose what to send. A port asks to choose
// at the picosecond its serialiser is (or becomes) free; every port asking
// for one picosecond joins one batch, and one decide event per batch fires
// after every landing of that picosecond (it has the later priority class),
// so a port's choice never depends on the order same-time events fire in.
// The Network hands a batch's ports their turn in the order they asked.
#include <cstdint>
#include <vector>

#include "core/time.h"
#include "core/time_slots.h"
#include "sim/engine/network/network_events.h"

namespace photonsim {

class DecisionBatches {
 public:
  explicit DecisionBatches(NetworkEvents events) : events_(events) {}

  void ask(uint32_t circuit, Time at) {
    uint32_t id = batches_.find(at);
    if (id == TimeSlots<std::vector<uint32_t>>::kNone) {
      id = batches_.open(at);
      events_.schedule(at, EventToken::Kind::decide, id, EventPriority::normal);
    }
    batches_[id].push_back(circuit);
  }
  // The circuits of batch `id`, in the order they asked; a port may ask
  // again while its batch is decided (a serialisation that takes no time).
  const std::vector<uint32_t>& batch(uint32_t id) { return batches_[id]; }
  void close(uint32_t id) {
    batches_[id].clear();
    batches_.close(id);
  }

 private:
  NetworkEvents events_;
  TimeSlots<std::vector<uint32_t>> batches_;  // per picosecond with a decide event: its circuits
};

}  // namespace photonsim
