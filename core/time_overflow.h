#pragma once
// Contract: thrown when time arithmetic would pass int64 picoseconds. Its
// message names the limit; callers that know the quantity (a step's
// prediction, the simulated run) catch it and say which one overflowed.
#include <string>

#include "core/error.h"

namespace photonsim {

class TimeOverflow : public Error {
 public:
  explicit TimeOverflow(const std::string& detail)
      : Error("time overflow (" + detail + "): beyond the largest time photonsim represents, " +
              "9223372036854775807 ps (about 106.75 days)"),
        detail_(detail) {}
  const std::string& detail() const { return detail_; }

 private:
  std::string detail_;
};

// The keys whose values set a run's times, named in every overflow message.
inline constexpr const char* kTimeKeys =
    "workload.message, fabric.bandwidth, fabric.latency, fabric.reconfig_delay, fabric.step_overhead";

// Runs `body`; a TimeOverflow inside it becomes an Error that names `quantity`
// (e.g. "the predicted time of step 3") and the keys that drive it.
template <class Body>
auto naming_time_overflow(const std::string& quantity, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const TimeOverflow& e) {
    throw Error(quantity +
                " passes the largest time photonsim represents, 9223372036854775807 ps (about 106.75 days; " +
                e.detail() + "); the keys that set it: " + kTimeKeys);
  }
}

}  // namespace photonsim
