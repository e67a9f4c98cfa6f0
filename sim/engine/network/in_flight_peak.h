#pragma once
// Contract: the most packets in the network at once (NetworkStats::
// peak_packets_in_flight, the reference Network's packet pool at its
// largest) from trains: packets cut at first, first + period, ... and
// delivered likewise. At one picosecond deliveries come before cuts (a
// landing is handled before the ports choose), so a packet delivered at t
// and one cut at t are never in flight together. Progressions are recorded
// once final, in any order (one may start later than others recorded after
// it); settle() folds those of a quiescent network (none in flight) into the
// peak and forgets them, so memory follows the flows under way. A
// progression recorded right after an identical one (many flows of a step
// cut alike) is kept as one more copy of it, not a new record.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/time.h"

namespace photonsim {

class InFlightPeak {
 public:
  // `copies` identical progressions at once.
  void cut(Time first, Time period, uint32_t count, uint32_t copies = 1) {
    record(cuts_, first, period, count, copies);
  }
  void delivered(Time first, Time period, uint32_t count, uint32_t copies = 1) {
    record(deliveries_, first, period, count, copies);
  }
  void settle();
  // The peak over everything recorded, settled or not.
  uint64_t peak() const;

 private:
  struct Progression {
    Time first;
    Time period;  // zero when count is 1: one instant, whatever its period
    uint32_t count;
    uint32_t copies;  // identical progressions recorded one after another
  };
  // A progression as the sweep walks it: its instants first, first + period,
  // ... last, each adding `weight` packets (copies; negative: deliveries).
  struct Run {
    int64_t first;
    int64_t period;
    int64_t last;
    int64_t weight;
  };
  struct Instant {
    int64_t when;
    int64_t weight;
    // Deliveries (negative) first at one picosecond.
    bool operator<(const Instant& o) const { return when != o.when ? when < o.when : weight < o.weight; }
  };
  using Boundary = std::pair<int64_t, uint32_t>;  // (time, run)
  // The sweep's buffers: settle() keeps them from one quiescent period to the
  // next, so a run of many steps does not allocate (and clear) them anew each.
  struct Scratch {
    std::vector<Run> runs;
    std::vector<Boundary> starts;
    std::vector<Boundary> ends;
    std::vector<Boundary> merged;
    std::vector<uint32_t> active;
    std::vector<uint32_t> place;
    std::vector<Instant> instants;
  };

  static void record(std::vector<Progression>& to, Time first, Time period, uint32_t count, uint32_t copies);
  static uint64_t sweep(const std::vector<Progression>& cuts, const std::vector<Progression>& deliveries,
                        Scratch& scratch);

  std::vector<Progression> cuts_;
  std::vector<Progression> deliveries_;
  uint64_t peak_ = 0;
  Scratch scratch_;
};

}  // namespace photonsim
