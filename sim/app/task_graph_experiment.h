#pragma once
// Contract: the data path for a config with workload.graph: each collective
// node synthesized for its group (GPUs renumbered 0..g-1 in the order the
// node lists them, fabric.gpus = g, planned from no circuits: its first
// topology is set up by the graph, exposed or hidden; a static planner runs
// on synthesis.static_topology, else synthesis.topology),
// each p2p node from the registry's point-to-point synthesizer (one step on
// one circuit), then the whole graph on the packet (or chunk) engine. Identical collectives (kind, group size,
// message, root's place) share one synthesis. Throws Error naming the node
// and where it was written (its file:line, or its Chakra file and node id)
// when its synthesis, its prediction or its run fails (a size or time past
// what photonsim represents included).
#include "schedules/model/schedule.h"
#include "schedules/synthesizer_registry.h"
#include "sim/config/experiment_config.h"
#include "sim/engine/fidelity.h"
#include "sim/reports/graph_report.h"

namespace photonsim {

// `timeline`, when given, receives every port's busy and dark spans;
// `progress` hears the nodes synthesized, then the nodes ended.
GraphReport run_task_graph(const ExperimentConfig& config, const SynthesizerRegistry& registry,
                           Fidelity fidelity = Fidelity::packet, Timeline* timeline = nullptr,
                           WorkProgress* progress = nullptr);

}  // namespace photonsim
