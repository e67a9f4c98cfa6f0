// Every key of a config, one line each (config_schema.h). The order is the
// order keys are read in, listed in `photonsim list` and in docs/config.md.
#include <climits>
#include <cstdint>
#include <limits>

#include "sim/config/config_key_builders.h"
#include "sim/config/config_readers.h"
#include "sim/config/failure_key_builders.h"
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

// "1300000h": a default mean time between failures, in whole hours.
std::string hours_text(double seconds) { return std::to_string(static_cast<long long>(seconds / 3600)) + "h"; }

// on_failure's policies and abort_restart's parameters, for `allowed`.
std::string failure_policy_names() {
  return choice_range_text(kFailurePolicyNames) + " {watchdog_timeout: duration, default " +
         format_time(FailureSpec{}.watchdog_timeout) +
         " (10 min); restart_time: duration, required; checkpoint_interval: duration, required by photonsim "
         "availability}; a name, or {type: abort_restart, PARAM: VALUE, ...}";
}

// A straggler is slower, never faster: 1 .. 10^6 times its compute.
double read_slowdown(const ConfigValue& value) {
  const std::string text = read_text(value);
  double slowdown = 0;
  try {
    slowdown = value.value.as<double>();
  } catch (const YAML::BadConversion&) {
    slowdown = 0;
  }
  if (!(slowdown >= 1.0 && slowdown <= 1e6))
    fail_at(value, value.key + " must be a number in 1..1000000: its compute takes that many times longer, never " +
                       "less (got " + quoted(text) + ")");
  return slowdown;
}

// A degraded port: above 0, at most the rate it has healthy.
Bandwidth read_degraded_bandwidth(const ConfigValue& value, const FabricSpec& fabric) {
  const Bandwidth rate = read_bandwidth(value);
  const bool split = fabric.bandwidth_scope == BandwidthScope::gpu;
  const Bandwidth healthy =
      split ? Bandwidth::bits_per_second(fabric.bandwidth.bps() / fabric.ports) : fabric.bandwidth;
  if (rate > healthy)
    fail_at(value,
            value.key + " = " + format_bandwidth(rate) + " is above " +
                (split ? "a port's share of fabric.bandwidth (" + format_bandwidth(healthy) + ", bandwidth_scope: gpu)"
                       : "fabric.bandwidth (" + format_bandwidth(healthy) + ")") +
                ": a link failure degrades a port, it never speeds it up");
  return rate;
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
    custom("fabric.failures", "failures", "", "none", "a list of {kind: KIND, ...}, the keys of each kind below (fabric.failures[].*)", "what breaks and when (read and checked; stragglers in task graphs and slow reconfigurations are simulated, a run refuses the other kinds until an engine simulates them)", read_failures),
    section_key("fabric.random_failures", "none", "failures drawn per run from per-port rates (read and checked; a run refuses them)", read_random_failures),
    custom("fabric.random_failures.port_mtbf", "duration", "s", hours_text(RandomFailures{}.port_mtbf_s), std::string("> 0, ") + kDurationValues, "mean time between failures of one port (Alibaba HPN, SIGCOMM 2024: 0.057 % of NIC-ToR links fail per month)", [](ConfigReader&, const ConfigValue& v, ExperimentConfig& c) { c.fabric.failures.random->port_mtbf_s = read_duration_seconds(v); }),
    custom("fabric.random_failures.flap_mtbf", "duration", "s", "none (no flaps drawn)", std::string("> 0, ") + kDurationValues, "mean time between flaps of one port (no published rate is taken as a default)", [](ConfigReader&, const ConfigValue& v, ExperimentConfig& c) { c.fabric.failures.random->flap_mtbf_s = read_duration_seconds(v); }),
    custom("fabric.random_failures.port_repair", "duration", "", "none (required by photonsim availability)", std::string("> 0, ") + kDurationValues, "how long a failed port stays down before it is repaired (no published figure is taken as a default)", [](ConfigReader&, const ConfigValue& v, ExperimentConfig& c) { c.fabric.failures.random->port_repair = read_positive_long_time(v); }),
    custom("fabric.random_failures.flap_duration", "duration", "", "none (required by photonsim availability with flap_mtbf)", std::string("> 0, ") + kDurationValues, "how long a drawn flap lasts (no published figure is taken as a default)", [](ConfigReader&, const ConfigValue& v, ExperimentConfig& c) { c.fabric.failures.random->flap_duration = read_positive_long_time(v); }),
    custom("fabric.random_failures.seed", "integer", "", "seed", integer_range_text(uint64_t{0}, std::numeric_limits<uint64_t>::max()), "seeds the draws (default: the experiment's seed)", [](ConfigReader&, const ConfigValue& v, ExperimentConfig& c) { c.fabric.failures.random->seed = read_integer<uint64_t>(v, 0, std::numeric_limits<uint64_t>::max()); }),
    time_key("fabric.failure_detection", &FailureSpec::detection, "how long after a circuit dies its sender learns of it (default: the SFP MSA's largest LOS assert time)"),
    custom("fabric.on_failure", "component", "", to_string(FailureSpec{}.on_failure), failure_policy_names(), "what a run does when a failure strikes; abort_restart is NCCL's: the job stops once the watchdog times out, then restarts from its last checkpoint", read_on_failure, true),
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

std::vector<ConfigKey> builtin_failure_keys() {
  const std::vector<std::string> all{"port", "switch", "link", "flap", "reconfiguration", "mzi", "straggler"};
  const std::vector<std::string> timed{"port", "switch", "link", "flap"};
  const std::vector<std::string> on_port{"port", "link", "flap"};
  const std::vector<std::string> mzi{"mzi"};
  using Fab = const FabricSpec&;
  // clang-format off
  return {
    failure_key("kind", "choice", "", all, all, "", choice_range_text(kFailureKindNames), "what breaks", [](const ConfigValue& v, Fab, Failure& f) { f.kind = read_choice(v, kFailureKindNames); }),
    failure_index_key("gpu", &Failure::gpu, "GPU", {"port", "link", "flap", "straggler"}, "0 .. fabric.gpus-1", "a GPU", [](Fab fabric) { return std::pair{fabric.gpus, "fabric.gpus is " + std::to_string(fabric.gpus)}; }, "the GPU"),
    failure_index_key("port", &Failure::port, "port", on_port, "0 .. fabric.ports-1", "a port", [](Fab fabric) { return std::pair{fabric.ports, "fabric.ports is " + std::to_string(fabric.ports)}; }, "the GPU's port"),
    failure_index_key("switch", &Failure::optical_switch, "switch", {"switch"}, "0 .. fabric.ports-1 (port p of every GPU is on switch p)", "an optical switch", [](Fab fabric) { return std::pair{fabric.ports, "fabric.ports is " + std::to_string(fabric.ports) + ": port p of every GPU is on switch p"}; }, "the optical switch; every circuit through it fails"),
    failure_key("at", "time", "ps", timed, {"flap"}, format_time(Failure{}.at), std::string(">= 0, ") + kTimeValues, "when it starts", [](const ConfigValue& v, Fab, Failure& f) { f.at = read_time(v); }),
    failure_key("for", "time", "ps", timed, {"flap"}, "until the run ends", std::string("> 0, ") + kTimeValues + "; at + for at most the largest time (about 106.75 days)", "how long it lasts", [](const ConfigValue& v, Fab, Failure& f) {
      f.duration = read_time(v);
      if (*f.duration == Time::zero()) fail_at(v, v.key + " must be positive (got " + quoted(read_text(v)) + "); leave it out for a failure that lasts until the run ends");
    }),
    failure_key("bandwidth", "bandwidth", "bits/s", {"link"}, {"link"}, "", "> 0, at most a port's rate (fabric.bandwidth; with bandwidth_scope: gpu, fabric.bandwidth / ports)", "the rate the port is degraded to", [](const ConfigValue& v, Fab fabric, Failure& f) { f.bandwidth = read_degraded_bandwidth(v, fabric); }),
    failure_key("step", "integer", "step", {"reconfiguration"}, {"reconfiguration"}, "", ">= 0 (a run refuses a step past the schedule's, or one that keeps its circuits)", "the step whose reconfiguration (the one before it starts) is slow", [](const ConfigValue& v, Fab, Failure& f) { f.step = read_integer<int>(v, 0, INT_MAX); }),
    failure_key("extra_delay", "time", "ps", {"reconfiguration"}, {"reconfiguration"}, "", std::string(">= 0, ") + kTimeValues, "dark time added to every switch command of that reconfiguration", [](const ConfigValue& v, Fab, Failure& f) { f.extra_delay = read_time(v); }),
    failure_index_key("server", &Failure::server, "server", mzi, "0 .. servers-1 of fabric.physical.servers (row-major)", "a server", [](Fab fabric) { const GridShape s = fabric.physical ? fabric.physical->servers : GridShape{0, 0}; return std::pair{s.count(), "fabric.physical.servers is " + shape_text(s) + ", numbered row-major"}; }, "the server whose MZI mesh holds it"),
    failure_index_key("row", &Failure::row, "MZI row", mzi, "0 .. rows-1 of fabric.physical.mesh", "a row", [](Fab fabric) { const GridShape m = fabric.physical ? fabric.physical->mesh : GridShape{0, 0}; return std::pair{m.rows, "fabric.physical.mesh is " + shape_text(m)}; }, "the MZI's row in the mesh"),
    failure_index_key("col", &Failure::col, "MZI column", mzi, "0 .. columns-1 of fabric.physical.mesh", "a column", [](Fab fabric) { const GridShape m = fabric.physical ? fabric.physical->mesh : GridShape{0, 0}; return std::pair{m.cols, "fabric.physical.mesh is " + shape_text(m)}; }, "the MZI's column in the mesh"),
    failure_key("slowdown", "real", "", {"straggler"}, {"straggler"}, "", "1 .. 1000000", "how many times longer the task graph's compute nodes on it take (rounded to the ps, nearest, ties away from zero)", [](const ConfigValue& v, Fab, Failure& f) { f.slowdown = read_slowdown(v); }),
  };
  // clang-format on
}

}  // namespace photonsim
