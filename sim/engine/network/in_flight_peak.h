#pragma once
// Contract: the most packets in the network at once (NetworkStats::
// peak_packets_in_flight, the reference Network's packet pool at its
// largest) from trains: packets cut at first, first + period, ... and
// delivered likewise. At one picosecond deliveries come before cuts (a
// landing is handled before the ports choose), so a packet delivered at t
// and one cut at t are never in flight together. Progressions are recorded
// once final; settle() folds those of a quiescent network (none in flight)
// into the peak and forgets them, so memory follows the flows under way.
#include <cstdint>
#include <vector>

#include "core/time.h"

namespace photonsim {

class InFlightPeak {
 public:
  void cut(Time first, Time period, uint32_t count) { cuts_.push_back({first, period, count}); }
  void delivered(Time first, Time period, uint32_t count) { deliveries_.push_back({first, period, count}); }
  void settle();
  // The peak over everything recorded, settled or not.
  uint64_t peak() const;

 private:
  struct Progression {
    Time first;
    Time period;
    uint32_t count;
  };
  static uint64_t sweep(const std::vector<Progression>& cuts, const std::vector<Progression>& deliveries);

  std::vector<Progression> cuts_;
  std::vector<Progression> deliveries_;
  uint64_t peak_ = 0;
};

}  // namespace photonsim
