#pragma once
// Contract: what `photonsim plan` adds when failures are known when planning
// (core/spec/planning_failures.h; docs/model.md, "Failures known when
// planning"): one line per entry saying what it took away, then the ports
// every topology was planned on. table(): the lines printed before the
// ranking ("" when no failure is known when planning, so the output is what
// it was). json(): `plan_json` (PlanReport::json()) with one key added at
// its end, "planning_failures", {configured_ports, planned_ports,
// surviving_switches, entries: [{entry, kind, ..., took_away}]}; unchanged
// when none is known.
#include <string>
#include <vector>

#include "core/spec/fabric_spec.h"

namespace photonsim::cli {

class PlanningFailuresOutput {
 public:
  explicit PlanningFailuresOutput(const FabricSpec& fabric);

  bool any() const { return !lines_.empty(); }
  std::string table() const;
  std::string json(const std::string& plan_json) const;

 private:
  struct Line {
    size_t entry = 0;
    std::string name;       // "fabric.failures[1] (switch 2, at 0)"
    std::string took_away;  // "switch 2 excluded: 4 of 4 ports -> 3"
  };

  const FabricSpec& fabric_;
  std::vector<Line> lines_;
  std::string summary_;  // "every topology planned on 3 ports (switches 0, 1, 3)"
};

}  // namespace photonsim::cli
