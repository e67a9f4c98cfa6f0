#pragma once
// Contract: photonsim availability's report (docs/cli.md, "availability"):
// per policy, goodput (useful iterations per hour; the mean over seeds, its
// median and minimum), the iteration time's distribution pooled over seeds
// (percentiles and the CDF) and the time lost per cause, with the states
// simulated; the policy with the highest mean goodput is named by that rule
// (a tie names none). JSON and CSV hold only what the study computed, so the
// same config and seeds give the same bytes; the table adds wall times.
#include <string>
#include <vector>

#include "sim/availability/availability_study.h"

namespace photonsim {

struct AvailabilityReport {
  std::string config;  // the path, as given
  std::vector<std::string> sets;  // the --set overrides, as given, in order
  AvailabilityStudy study;

  std::string table() const;
  std::string json() const;
  // One row per policy and seed.
  std::string csv() const;
};

// "table" | "json" | "csv"; throws Error listing them otherwise.
std::string render_availability_report(const AvailabilityReport& report, const std::string& format);

}  // namespace photonsim
