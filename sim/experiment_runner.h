#pragma once
// Contract: the whole data path for one experiment:
// config -> synthesizer -> Schedule (+ prediction) -> Replayer -> RunReport.
// Pure apart from wall-clock timing; throws Error on any invalid input.
#include "schedules/schedule.h"
#include "schedules/synthesizer_registry.h"
#include "sim/experiment_config.h"
#include "sim/fidelity.h"
#include "sim/run_report.h"

namespace photonsim {

RunReport run_experiment(const ExperimentConfig& config, const SynthesizerRegistry& registry,
                         Fidelity fidelity = Fidelity::packet);
// Replays a given schedule (e.g. read from a .pb) on the config's fabric.
RunReport replay_schedule(const Schedule& schedule, const ExperimentConfig& config,
                          Fidelity fidelity = Fidelity::packet);

}  // namespace photonsim
