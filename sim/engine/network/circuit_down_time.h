#pragma once
// Contract: when one lit circuit is down (docs/model.md, "Lost circuits",
// L1-L2): the union of the intervals of the fabric.failures entries on its
// two ends' ports and on its switch, merged and sorted, with each raw
// interval kept beside for charging a loss to an entry. Plain value, built by
// CircuitFailures when the switch aims the circuit.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/time.h"
#include "core/units.h"

namespace photonsim {

struct DownInterval {
  Time from;
  Time until;  // Time::max(): to the run's end
};

// A degraded link (fabric.failures kind link): the circuit runs at `rate` over the span.
struct DegradedSpan {
  DownInterval span;
  Bandwidth rate;
};

struct EntryInterval {
  DownInterval span;
  uint32_t entry = 0;  // its index in fabric.failures
};

class CircuitDownTime {
 public:
  CircuitDownTime() = default;
  // `raw` in any order; overlapping or touching intervals merge.
  explicit CircuitDownTime(std::vector<EntryInterval> raw);

  bool never_down() const { return merged_.empty(); }
  // The first merged interval that meets [from, until), if any.
  const DownInterval* first_meeting(Time from, Time until) const;
  // The lowest entry index among the raw intervals meeting [from, until)
  // (requires first_meeting(from, until)).
  uint32_t entry_meeting(Time from, Time until) const;
  // Known down at `now` (L2: inside [x + detection, y) of a merged [x, y)):
  // the interval; none otherwise.
  const DownInterval* known_down_at(Time now, Time detection) const;
  // Down at `now`.
  const DownInterval* down_at(Time now) const;
  // The lowest entry index whose interval lasts to the run's end, if any.
  std::optional<uint32_t> entry_forever() const;

 private:
  std::vector<DownInterval> merged_;
  std::vector<EntryInterval> raw_;
};

}  // namespace photonsim
