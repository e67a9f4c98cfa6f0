#pragma once
// Contract: the whole data path for one experiment:
// config -> synthesizer -> Schedule (+ prediction) -> run_schedule -> RunReport.
// Pure apart from wall-clock timing; throws Error on any invalid input.
#include <optional>
#include <string>

#include "schedules/model/schedule.h"
#include "schedules/synthesizer_registry.h"
#include "sim/config/experiment_config.h"
#include "sim/engine/fidelity.h"
#include "sim/engine/run_progress.h"
#include "sim/engine/network/timeline.h"
#include "sim/reports/run_report.h"

namespace photonsim {

// `timeline`, when given, receives what every port and transfer did (the
// packet and chunk fidelities; analytical leaves it empty: no packets run).
RunReport run_experiment(const ExperimentConfig& config, const SynthesizerRegistry& registry,
                         Fidelity fidelity = Fidelity::packet, RunProgress* progress = nullptr,
                         Timeline* timeline = nullptr);
// Simulates `schedule` on the config's fabric and reports it next to the
// schedule's own prediction (made for this fabric by the synthesizer). The
// report keeps the schedule: pass an rvalue to move it there.
RunReport simulate_schedule(Schedule schedule, const ExperimentConfig& config, Fidelity fidelity = Fidelity::packet,
                            RunProgress* progress = nullptr, Timeline* timeline = nullptr);
// Throws Error (located at its key) when the config names an engine
// component that does not exist (fabric.reconfig_model), or asks for a
// failure no engine simulates yet (refuse_unsimulated_failures): the one gate every run,
// replay, task graph and sweep point passes before a backend executes.
void check_engine_names(const ExperimentConfig& config);
// Throws Error, at the entry's file:line and naming it ("fabric.failures[2]
// (port): ..."), for the first entry of fabric.failures that no engine
// simulates as asked: a port, switch or flap under any on_failure but wait
// (a switch down at 0 that the plan leaves out passes under every policy),
// a link under cut-through, a straggler in a run without a task graph (it
// slows compute nodes, and there are none), or a slow reconfiguration in a
// task graph; then at fabric.random_failures (a run draws none: photonsim
// availability does). Every other entry passes: the engine simulates it, or
// (mzi) the plan routed around it.
void refuse_unsimulated_failures(const ExperimentConfig& config);
// An engine's message about entry i of fabric.failures ("fabric.failures[i]
// ..."), with where that entry was written in front; none for any other.
std::optional<std::string> located_failure_message(const ExperimentConfig& config, const std::string& message);
// Throws Error unless the schedule's GPU count is fabric.gpus and each of its
// topologies fits the fabric's ports (and, with fabric.physical, is routed
// there), then, with switches failed at 0, the ports that survive them
// (CircuitPlan::check_surviving_ports, at the entry's file:line): the one fit
// check of a schedule from outside the synthesizers, made once per run before
// anything uses it (verification, prediction, the engine).
void check_schedule_fits(const Schedule& schedule, const ExperimentConfig& config);
// Replays a saved (or another tool's) schedule on the config's fabric: first
// checks that it fits (GPU count, ports), then predicts it again for this
// fabric with the model it names (predict_for_fabric) and simulates it. The
// prediction stored in the schedule, made for the fabric it was synthesized
// on, is kept only as RunReport::stored_prediction.
RunReport replay_schedule(const Schedule& schedule, const ExperimentConfig& config,
                          Fidelity fidelity = Fidelity::packet, RunProgress* progress = nullptr,
                          Timeline* timeline = nullptr);
// replay_schedule without the fit check, for a caller that made it already.
RunReport replay_fitting_schedule(const Schedule& schedule, const ExperimentConfig& config,
                                  Fidelity fidelity = Fidelity::packet, RunProgress* progress = nullptr,
                                  Timeline* timeline = nullptr);

}  // namespace photonsim
