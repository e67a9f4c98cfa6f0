// Every key of a config, one line each (config_schema.h). The order is the
// order keys are read in, listed in `photonsim list` and in docs/config.md.
#include <climits>
#include <cstdint>
#include <limits>

#include "sim/config/config_key_builders.h"
#include "sim/config/config_readers.h"
#include "sim/config/graph_key_builders.h"
#include "sim/engine/switch/reconfiguration_models.h"

namespace photonsim {
namespace {

constexpr EnumName<bool> kFiberDirectionNames[] = {{false, "separate"}, {true, "shared"}};

// "constant | sequential (per_port: time, default 0ps)".
std::string reconfiguration_model_names() {
  std::string out;
  for (const ReconfigurationModelInfo& model : reconfiguration_models()) {
    out += (out.empty() ? "" : " | ") + model.name;
    std::string parameters;
    for (const ReconfigurationParameter& p : model.parameters)
      parameters += (parameters.empty() ? "" : ", ") + p.name + ": " + p.kind + ", default " + p.default_value;
    if (!parameters.empty()) out += " {" + parameters + "}";
  }
  return out;
}

ConfigKey custom(std::string path, std::string kind, std::string unit, std::string default_value, std::string allowed,
                 std::string doc, KeyRead read, bool open = false) {
  ConfigKey key{std::move(path),
                std::move(kind),
                std::move(unit),
                std::move(default_value),
                std::move(allowed),
                std::move(doc),
                open};
  key.read = std::move(read);
  return key;
}

// workload.graph[].root: a broadcast's only (checked before its value);
// where a collective node leaves it out, the first GPU of its group.
ConfigKey broadcast_root(ConfigKey key) {
  key.read_node = [read = std::move(key.read_node)](const ConfigValue& value, int gpus, const Locate& locate,
                                                    TaskNode& node) {
    if (node.collective != Collective::broadcast) fail_at(value, value.key + " applies only to collective: broadcast");
    read(value, gpus, locate, node);
  };
  key.node_default = [](TaskNode& node) { node.root = node.gpus.empty() ? 0 : node.gpus.front(); };
  return key;
}

}  // namespace

std::vector<ConfigKey> builtin_config_keys() {
  const std::string sizes = kSizeValues;
  using F = FabricSpec;
  using P = PhysicalSpec;
  using W = WorkloadSpec;
  // clang-format off
  return {
    integer_key("seed", &ExperimentSpec::seed, uint64_t{0}, std::numeric_limits<uint64_t>::max(), "", "seeds every random choice (flow sizes, shuffles); recorded in every result"),
    section_key("fabric", "required", "the GPUs, their ports and circuits, routers and the optical switch"),
    required(integer_key("fabric.gpus", &F::gpus, 2, INT_MAX, "GPUs", "GPUs on the fabric")),
    integer_key("fabric.ports", &F::ports, 1, INT_MAX, "ports", "optical ports per GPU; a configuration gives each port at most one circuit"),
    choice_key("fabric.circuits", &F::circuits, kCircuitKindNames, "a circuit carries one direction, or both"),
    bandwidth_key("fabric.bandwidth", &F::bandwidth, "line rate of each circuit (with bandwidth_scope: gpu, of each GPU)"),
    with_check(choice_key("fabric.bandwidth_scope", &F::bandwidth_scope, kBandwidthScopeNames, "circuit: bandwidth is each circuit's rate; gpu: a GPU's, split over its ports, a configuration's circuits sharing them (PCCL's hardware)"), check_bandwidth_scope),
    required(time_key("fabric.latency", &F::latency, "propagation per hop")),
    choice_key("fabric.router", &F::router, kRouterModeNames, "how a GPU forwards a packet it relays"),
    size_key("fabric.packet", &F::packet, "chunk", "forwarding unit (chunk: one packet per chunk)"),
    size_or_zero_key("fabric.header", &F::header, "cut-through forwards a packet once this much of it has arrived"),
    choice_key("fabric.egress_order", &F::egress_order, kEgressOrderNames, "which waiting packet an idle port sends next"),
    time_key("fabric.reconfig_delay", &F::reconfig_delay, "alpha_r: how long circuits are dark when the configuration changes"),
    with_catalog(custom("fabric.reconfig_model", "component", "", FabricSpec{}.reconfig_model, reconfiguration_model_names() + "; a name, or {type: NAME, PARAM: VALUE, ...}", "how long a switch command is dark, from reconfig_delay and the ports it changes", read_reconfig_model, true), "reconfiguration models"),
    time_key("fabric.step_overhead", &F::step_overhead, "alpha: paid once per step"),
    choice_key("fabric.sync", &F::sync, kSyncModeNames, "a step starts after a global barrier (the papers' model) or as soon as its data and circuits are there"),
    choice_key("fabric.reconfiguration", &F::reconfiguration, kReconfigurationScopeNames, "which circuits go dark on a change: all, or only those that differ"),
    boolean_key("fabric.preconfigure", &F::preconfigure, "task graphs: a communication node's first circuits are set up while its GPUs still compute"),
    choice_key("fabric.priority", &F::priority, kCommunicationPriorityNames, "task graphs: who takes a GPU first when a p2p send and a collective wait"),
    section_key("fabric.physical", "none", "PCCL's physical layer: every configuration must be routed on MZI meshes and fibers", read_physical),
    shape_key("fabric.physical.servers", &P::servers, "servers", "servers on a grid; servers x tiles = fabric.gpus"),
    shape_key("fabric.physical.tiles", &P::tiles, "tiles", "tiles per server, one GPU each"),
    with_allowed(shape_key("fabric.physical.mesh", &P::mesh, "MZIs", "MZI mesh per server: >= 2 columns and fabric.ports rows per tile"), "ROWSxCOLS, at most 1024x1024"),
    integer_key("fabric.physical.wavelengths", &P::wavelengths, 1, 1024, "wavelengths", "wavelengths per waveguide and per fiber"),
    with_allowed(integer_key("fabric.physical.fibers", &P::fibers, 1, 1 << 20, "fibers", "fibers per direction of every server-grid edge"), "1 .. the mesh's shorter side"),
    choice_key("fabric.physical.fiber_directions", &P::shared_fibers, kFiberDirectionNames, "each direction has its own fibers, or a link's fibers carry both", "separate or shared"),
    real_key("fabric.physical.mzi_loss_db", &P::mzi_loss_db, 0.0, 100.0, "dB", "loss per MZI a circuit crosses"),
    real_key("fabric.physical.tile_loss_db", &P::tile_loss_db, 0.0, 100.0, "dB", "loss per tile boundary crossed"),
    real_key("fabric.physical.fiber_loss_db", &P::fiber_loss_db, 0.0, 100.0, "dB", "loss per waveguide-to-fiber coupling"),
    real_key("fabric.physical.solver_time_limit_s", &P::solver_time_limit_s, 0.001, 86400.0, "s", "time limit of the routing ILP, per configuration"),
    section_key("workload", "required", "what the collective (or the task graph) moves", read_workload),
    with_default(choice_key("workload.collective", &W::collective, kCollectiveNames, "the collective"), "required (without graph)"),
    with_default(size_key("workload.message", &W::message, nullptr, "buffer per GPU; for all-to-all, each (source, destination) flow"), "required (without graph)"),
    with_check(custom("workload.message_scope", "choice", "", "flow", choice_range_text(kMessageScopeNames), "all-to-all: message is per flow, or the per-GPU buffer split over n flows", {}), apply_message_scope),
    size_key("workload.chunk", &W::chunk, "whole", "scheduling unit inside a transfer (whole: one chunk per transfer)"),
    custom("workload.root", "integer", "GPU", std::to_string(WorkloadSpec{}.root), "0 .. fabric.gpus-1", "broadcast root", read_root),
    choice_key("workload.distribution", &W::distribution, kFlowDistributionNames, "all-to-all flow sizes between pairs"),
    with_allowed(with_check(real_key("workload.zipf_factor", &W::zipf_factor, 0.0, 100.0, "", "skew of zipf flow sizes"), check_zipf_factor), "0 .. 100, with distribution: zipf"),
    custom("workload.graph", "graph", "", "none", "a list of nodes (keys workload.graph[].*), a YAML file of one, or {chakra: PREFIX[, replicate: N][, algorithms: {COLLECTIVE: ALGORITHM}]}", "a task graph instead of one collective (docs/workloads.md)", read_graph),
    section_key("synthesis", "required", "how the schedule is made"),
    with_catalog(custom("synthesis.algorithm", "component", "", "required", "a name, or {type: NAME, PARAM: VALUE, ...} (photonsim list)", "the collective algorithm or joint synthesizer", read_algorithm, true), "algorithms"),
    with_catalog(custom("synthesis.planner", "component", "", "the algorithm's own", "a name, or {type: NAME, ...} (photonsim list)", "when to reconfigure and to which topology", read_planner, true), "planners"),
    with_catalog(custom("synthesis.topology", "component", "", "none", "a name, or {type: NAME, ...} (photonsim list)", "what the fabric holds before step 0", read_topology, true), "topologies"),
    with_catalog(custom("synthesis.static_topology", "component", "", "synthesis.topology", "a name, or {type: NAME, ...}; {type: from_step, step: K}", "the topology of the static planner", read_static_topology, true), "topologies"),
    custom("synthesis.reconfigurations", "integer", "topologies", "auto", "auto, or >= 1", "joint synthesizers: how many topologies (auto: the lowest predicted time)", read_reconfigurations),
    section_key("output", "none", "where results go"),
    text_key("output.dir", &ExperimentConfig::output_dir, "a folder", "the run's results (as --out)"),
  };
  // clang-format on
}

std::vector<ConfigKey> builtin_graph_keys() {
  const std::vector<std::string> all{"compute", "collective", "p2p", "delay"};
  const std::vector<std::string> collective{"collective"};
  const std::vector<std::string> p2p{"p2p"};
  using N = TaskNode;
  // clang-format off
  return {
    chakra_name_key("chakra", &ChakraImport::prefix, "required (as a map)", "a path prefix: PREFIX.0.et, PREFIX.1.et, ... (relative to the config's folder)", "Chakra execution traces, one rank per GPU"),
    chakra_integer_key("replicate", &ChakraImport::replicate, 2, INT_MAX, "ranks", "run rank 0's trace on this many ranks"),
    chakra_choice_map_key("algorithms", &ChakraImport::algorithms, kCollectiveNames, "a collective", "an algorithm", "synthesis.algorithm", "{COLLECTIVE: ALGORITHM, ...}", "the algorithm each kind of collective in the traces runs"),
    node_key("name", "text", "", all, all, "", "unique", "the node's name"),
    node_choice_key("type", &N::kind, kTaskKindNames, all, all, "", "what the node does (delay: a duration that holds no GPU and no port: host-side work, such as a Chakra trace's CPU operations)"),
    node_names_key("after", &N::after, all, {}, "none", "the nodes this one waits for"),
    node_choice_key("collective", &N::collective, kCollectiveNames, collective, collective, "", "the collective"),
    node_gpus_key("gpus", &N::gpus, {"compute", "collective", "delay"}, {"compute", "collective"}, "none (delay: whose host runs it, for reports only)", "the GPUs it runs on"),
    node_time_key("duration", &N::duration, {"compute", "delay"}, {"compute", "delay"}, "", "how long the GPUs compute, or the delay lasts"),
    node_size_key("message", &N::message, collective, collective, "", "as workload.message, for the group"),
    broadcast_root(with_allowed(node_integer_key("root", &N::root, 0, INT_MAX, "GPU", collective, {}, "the first of gpus", "broadcast root"), "a GPU of the group; broadcast only")),
    node_name_key("algorithm", "component", &N::algorithm, collective, {}, "synthesis.algorithm", "an algorithm name", "its own synthesis.algorithm (the config's algorithm parameters apply only to the config's own)"),
    node_name_key("planner", "component", &N::planner, collective, {}, "synthesis.planner", "a planner name", "its own synthesis.planner"),
    node_integer_key("src", &N::src, 0, INT_MAX, "GPU", p2p, p2p, "", "sender"),
    node_integer_key("dst", &N::dst, 0, INT_MAX, "GPU", p2p, p2p, "", "receiver"),
    node_size_key("bytes", &N::bytes, p2p, p2p, "", "size sent"),
  };
  // clang-format on
}

}  // namespace photonsim
