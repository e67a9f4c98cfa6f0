#pragma once
// Contract: what a run's failures cost, as the run and graph reports write it
// (only when fabric.failures or random_failures is configured: a healthy
// fabric's reports keep their bytes). Per entry of fabric.failures that the
// engine simulated, in its order: its kind, its index (`entry`), what it
// names and what it cost - a reconfiguration its step, extra_delay_ps, the
// switch commands it lengthened and extra_dark_ps (commands x extra_delay);
// a straggler its GPU, its slowdown, the compute nodes it slowed and
// slowed_compute_ps (the time it added to them).
#include <string>
#include <vector>

#include "core/spec/failure_spec.h"
#include "sim/engine/failure_cost.h"
#include "sim/engine/network/network_stats.h"
#include "sim/reports/json_writer.h"

namespace photonsim {

// The key "failures" and its array.
void write_failures_json(JsonWriter& out, const FailureSpec& spec, const std::vector<FailureCost>& costs);
// One line per entry, "failure 0          reconfiguration before step 1: ..." each ending in "\n".
std::string failures_table(const FailureSpec& spec, const std::vector<FailureCost>& costs);
// Circuits that went down (docs/model.md, "Lost circuits"): the run's
// `loss` object and its table line, only when such an entry is configured.
void write_loss_json(JsonWriter& out, const NetworkStats& network);
std::string loss_table(const NetworkStats& network);
// The sums over the entries: extra_dark_ps and slowed_compute_ps.
Time total_extra_dark(const std::vector<FailureCost>& costs);
Time total_slowed_compute(const std::vector<FailureCost>& costs);
// A slowdown as read, shortest round-trip form ("1.3", "2").
std::string slowdown_text(double slowdown);

}  // namespace photonsim
