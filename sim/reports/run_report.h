#pragma once
// Contract: measured next to predicted for one run, rendered three ways.
// JSON and CSV columns are a contract (scripts rely on them): integer
// picoseconds for times, error_pct = 100 * (measured - predicted) / predicted.
// Everything except the timings wall_s, synthesis_s and simulation_s (the
// synthesizer's and the replay's share of wall_s) is a pure function of
// config and seed, so the same inputs give byte-identical output.
#include <cstdint>
#include <optional>
#include <string>

#include "core/spec/experiment_spec.h"
#include "schedules/model/schedule.h"
#include "sim/engine/fidelity.h"
#include "sim/engine/run_result.h"

namespace photonsim {

struct RunReport {
  ExperimentSpec spec;  // what it ran with (never the app's config type)
  Schedule schedule;
  RunResult result;
  double wall_seconds = 0;
  double synthesis_seconds = 0;   // 0 for replay: nothing synthesized
  double simulation_seconds = 0;  // the replay (or the analytical result)
  Fidelity fidelity = Fidelity::packet;
  // replay only: the prediction the schedule carried, made for the fabric it
  // was synthesized on (the report's own prediction is for this fabric).
  std::optional<Prediction> stored_prediction;

  std::string table() const;
  std::string json() const;
  std::string csv() const;
};

// "table" | "json" | "csv"; throws Error listing them otherwise.
std::string render_report(const RunReport& report, const std::string& format);

}  // namespace photonsim
