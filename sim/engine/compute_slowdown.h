#pragma once
// Contract: how long a task graph's compute node takes on a fabric with
// stragglers (fabric.failures entries of kind straggler; docs/model.md
// "Failures"). A compute node on GPUs G1..Gk takes its duration times the
// largest slowdown among them (it ends when its slowest GPU does; GPUs with
// no straggler entry have slowdown 1), rounded to the picosecond: the exact
// product of the duration and the slowdown as read (the IEEE double nearest
// the number written), to the nearest picosecond, ties away from zero. The
// entry with that largest slowdown (the lowest index on equal slowdowns) is
// charged the time added. Delay nodes (host-side waits) are not compute and
// are never slowed. Pure: no clock, no state beyond the entries.
#include <cstddef>
#include <optional>
#include <vector>

#include "core/spec/failure_spec.h"
#include "core/spec/task_graph.h"
#include "core/time.h"

namespace photonsim {

class ComputeSlowdown {
 public:
  struct Slowed {
    Time duration;                // what the node takes
    std::optional<size_t> entry;  // the straggler entry charged (none: no GPU of it straggles)
  };

  // The straggler entries of `failures`, on a fabric of `gpus` GPUs.
  ComputeSlowdown(const FailureSpec& failures, int gpus);

  bool any() const { return !entries_.empty(); }
  // The straggler entries' indices in fabric.failures, ascending.
  const std::vector<size_t>& entries() const { return entries_; }
  // A compute node's time on these GPUs; none when it passes the time range.
  std::optional<Slowed> apply(const TaskNode& node) const;
  // round(duration x slowdown), nearest, ties away from zero, exact for the
  // double; none past Time::max(). duration >= 0, slowdown >= 1.
  static std::optional<Time> scaled(Time duration, double slowdown);

 private:
  std::vector<size_t> entries_;
  std::vector<int> entry_of_gpu_;  // per GPU: index into fabric.failures, -1 none
  std::vector<double> slowdown_of_gpu_;
};

}  // namespace photonsim
