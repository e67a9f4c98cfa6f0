#pragma once
// Contract: what a training job does over a timeline of port outages
// (issue 55, item 5; docs/model.md, "A month of training"). The job repeats
// one iteration back to back; each fabric state's iteration time comes from
// `IterationTimes` (the engine's, simulated once per state by the study), and
// the policy decides what an outage costs:
//   replan           detection, then one re-aim of the circuits, then the
//                    iteration planned without the switches that lost a port,
//                    until the repair (one more re-aim);
//   static_fallback  the same, with the rest planned on one static topology;
//   wait             no progress while any port is down;
//   abort_restart    the watchdog's timeout, then the restart, losing the
//                    work since the last checkpoint; the job comes back on a
//                    healthy fabric (the failed host swapped for a spare).
// A flap costs max(its length, detection) under every policy: the link layer
// rides it out. The partial iteration at the horizon is not counted.
// Deterministic and pure: no I/O, no clock.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "core/spec/failure_spec.h"
#include "core/time.h"
#include "sim/availability/port_outage_draw.h"

namespace photonsim {

// Which plan an iteration runs on.
enum class IterationPlan {
  configured,       // the config's own synthesis (every healthy iteration)
  replanned,        // the config's synthesis on the surviving switches
  static_fallback,  // synthesis.planner static on the surviving switches
};
const char* to_string(IterationPlan plan);

// The iteration time of `plan` on the fabric without `lost_switches` (sorted,
// never empty for replanned and static_fallback); none when no plan exists
// there (no switch survives).
using IterationTimes = std::function<std::optional<Time>(IterationPlan, const std::vector<int>& lost_switches)>;

struct PolicyCosts {
  FailurePolicy policy = FailurePolicy::replan;
  Time detection;            // fabric.failure_detection
  Time reconfiguration;      // one re-aim of the circuits: fabric.reconfig_delay
  Time watchdog_timeout;     // abort_restart
  Time restart_time;         // abort_restart
  Time checkpoint_interval;  // abort_restart, > 0
};

// Wall time that made no progress at the healthy rate, by cause.
struct LostTime {
  Time detection;        // replan, static_fallback: until the loss is known
  Time reconfiguration;  // replan, static_fallback: re-aiming the circuits
  Time degraded;         // running slower than healthy on a replanned fabric
  Time waiting;          // wait (or no plan survives): nothing runs
  Time flaps;            // every policy: the link layer riding a flap out
  Time watchdog;         // abort_restart: until the job is declared hung
  Time restart;          // abort_restart: the restart from the checkpoint
  Time rollback;         // abort_restart: wall time since the last checkpoint, redone
  Time total() const;
};

struct TimelineOutcome {
  int64_t useful_iterations = 0;     // completed and kept
  int64_t completed_iterations = 0;  // with those a restart threw away
  // Completed iterations by wall time, from their start to their end (an
  // iteration a failure strikes carries what the failure cost it).
  std::map<Time, int64_t> iteration_times;
  LostTime lost;
  int port_failures = 0;  // outages that were not flaps
  int flaps = 0;
  int replans = 0;   // replan, static_fallback: plans changed by a failure or a repair
  int restarts = 0;  // abort_restart
};

class TrainingTimeline {
 public:
  // `times` gives a positive iteration time for (configured, {}).
  TrainingTimeline(IterationTimes times, PolicyCosts costs, Time horizon);

  // The job over [0, horizon) under `outages` (draw_port_outages' order).
  TimelineOutcome run(const std::vector<PortOutage>& outages) const;

 private:
  IterationTimes times_;
  PolicyCosts costs_;
  Time horizon_;
};

}  // namespace photonsim
