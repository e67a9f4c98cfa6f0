#include "sim/config/config_schema.h"

#include <algorithm>
#include <limits>
#include <sstream>

#include "core/enum_names.h"
#include "core/spec/fabric_spec.h"
#include "core/spec/physical_spec.h"
#include "core/spec/synthesis_spec.h"
#include "core/spec/workload_spec.h"
#include "core/time.h"
#include "core/units.h"

namespace photonsim {
namespace {

template <class E, size_t N>
std::string names(const EnumName<E> (&table)[N]) {
  std::string out;
  for (const EnumName<E>& entry : table) out += std::string(out.empty() ? "" : " | ") + entry.name;
  return out;
}

template <class E, size_t N>
std::string name(const EnumName<E> (&table)[N], E value) {
  return name_of(table, value);
}

std::string real_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::vector<ConfigKey> builtin_keys() {
  const FabricSpec fabric;
  const WorkloadSpec workload;
  const PhysicalSpec physical;
  const std::string time_values = "a time: a number and ps, ns, us, ms or s (1.5us)";
  const std::string size_values = "a size: a number and B, KB, MB, GB, TB, KiB, MiB, GiB or TiB";
  // clang-format off
  return {
    {"seed", "integer", "", "1", "0 .. 2^64-1", "seeds every random choice (flow sizes, shuffles); recorded in every result"},
    {"fabric", "section", "", "required", "a map", "the GPUs, their ports and circuits, routers and the optical switch"},
    {"fabric.gpus", "integer", "GPUs", "required", ">= 2", "GPUs on the fabric"},
    {"fabric.ports", "integer", "ports", std::to_string(fabric.ports), ">= 1", "optical ports per GPU; a configuration gives each port at most one circuit"},
    {"fabric.circuits", "choice", "", name(kCircuitKindNames, fabric.circuits), names(kCircuitKindNames), "a circuit carries one direction, or both"},
    {"fabric.bandwidth", "bandwidth", "bits/s", "required", "> 0: a number and bps, Kbps, Mbps, Gbps, Tbps, Gb/s, ... or B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s", "line rate of each circuit (with bandwidth_scope: gpu, of each GPU)"},
    {"fabric.bandwidth_scope", "choice", "", name(kBandwidthScopeNames, fabric.bandwidth_scope), names(kBandwidthScopeNames), "circuit: bandwidth is each circuit's rate; gpu: a GPU's, split over its ports, a configuration's circuits sharing them (PCCL's hardware)"},
    {"fabric.latency", "time", "ps", "required", ">= 0, " + time_values, "propagation per hop"},
    {"fabric.router", "choice", "", name(kRouterModeNames, fabric.router), names(kRouterModeNames), "how a GPU forwards a packet it relays"},
    {"fabric.packet", "size", "bytes", "chunk", "chunk, or > 0, " + size_values, "forwarding unit (chunk: one packet per chunk)"},
    {"fabric.header", "size", "bytes", format_bytes(fabric.header), ">= 0, " + size_values, "cut-through forwards a packet once this much of it has arrived"},
    {"fabric.egress_order", "choice", "", name(kEgressOrderNames, fabric.egress_order), names(kEgressOrderNames), "which waiting packet an idle port sends next"},
    {"fabric.reconfig_delay", "time", "ps", format_time(fabric.reconfig_delay), ">= 0, " + time_values, "alpha_r: how long circuits are dark when the configuration changes"},
    {"fabric.reconfig_model", "name", "", fabric.reconfig_model, "a reconfiguration model (photonsim list)", "how long a switch command is dark, from reconfig_delay and the ports it changes"},
    {"fabric.step_overhead", "time", "ps", format_time(fabric.step_overhead), ">= 0, " + time_values, "alpha: paid once per step"},
    {"fabric.sync", "choice", "", name(kSyncModeNames, fabric.sync), names(kSyncModeNames), "a step starts after a global barrier (the papers' model) or as soon as its data and circuits are there"},
    {"fabric.reconfiguration", "choice", "", name(kReconfigurationScopeNames, fabric.reconfiguration), names(kReconfigurationScopeNames), "which circuits go dark on a change: all, or only those that differ"},
    {"fabric.preconfigure", "boolean", "", fabric.preconfigure ? "true" : "false", "true | false", "task graphs: a communication node's first circuits are set up while its GPUs still compute"},
    {"fabric.priority", "choice", "", name(kCommunicationPriorityNames, fabric.priority), names(kCommunicationPriorityNames), "task graphs: who takes a GPU first when a p2p send and a collective wait"},
    {"fabric.physical", "section", "", "none", "a map", "PCCL's physical layer: every configuration must be routed on MZI meshes and fibers"},
    {"fabric.physical.servers", "shape", "servers", "required", "ROWSxCOLS, each 1..4096", "servers on a grid; servers x tiles = fabric.gpus"},
    {"fabric.physical.tiles", "shape", "tiles", "required", "ROWSxCOLS, each 1..4096", "tiles per server, one GPU each"},
    {"fabric.physical.mesh", "shape", "MZIs", "required", "ROWSxCOLS, at most 1024x1024", "MZI mesh per server: >= 2 columns and fabric.ports rows per tile"},
    {"fabric.physical.wavelengths", "integer", "wavelengths", std::to_string(physical.wavelengths), "1 .. 1024", "wavelengths per waveguide and per fiber"},
    {"fabric.physical.fibers", "integer", "fibers", std::to_string(physical.fibers), "1 .. the mesh's shorter side", "fibers per direction of every server-grid edge"},
    {"fabric.physical.fiber_directions", "choice", "", physical.shared_fibers ? "shared" : "separate", "separate | shared", "each direction has its own fibers, or a link's fibers carry both"},
    {"fabric.physical.mzi_loss_db", "real", "dB", real_text(physical.mzi_loss_db), "0 .. 100", "loss per MZI a circuit crosses"},
    {"fabric.physical.tile_loss_db", "real", "dB", real_text(physical.tile_loss_db), "0 .. 100", "loss per tile boundary crossed"},
    {"fabric.physical.fiber_loss_db", "real", "dB", real_text(physical.fiber_loss_db), "0 .. 100", "loss per waveguide-to-fiber coupling"},
    {"fabric.physical.solver_time_limit_s", "real", "s", real_text(physical.solver_time_limit_s), "0.001 .. 86400", "time limit of the routing ILP, per configuration"},
    {"workload", "section", "", "required", "a map", "what the collective (or the task graph) moves"},
    {"workload.collective", "choice", "", "required (without graph)", names(kCollectiveNames), "the collective"},
    {"workload.message", "size", "bytes", "required (without graph)", "> 0, " + size_values, "buffer per GPU; for all-to-all, each (source, destination) flow"},
    {"workload.message_scope", "choice", "", "flow", "flow | gpu", "all-to-all: message is per flow, or the per-GPU buffer split over n flows"},
    {"workload.chunk", "size", "bytes", "whole", "whole, or > 0, " + size_values, "scheduling unit inside a transfer (whole: one chunk per transfer)"},
    {"workload.root", "integer", "GPU", std::to_string(workload.root), "0 .. fabric.gpus-1", "broadcast root"},
    {"workload.distribution", "choice", "", name(kFlowDistributionNames, workload.distribution), names(kFlowDistributionNames), "all-to-all flow sizes between pairs"},
    {"workload.zipf_factor", "real", "", real_text(workload.zipf_factor), "0 .. 100, with distribution: zipf", "skew of zipf flow sizes"},
    {"workload.graph", "graph", "", "none", "a list of nodes, a YAML file of one, or {chakra: PREFIX[, replicate: N][, algorithms: {COLLECTIVE: ALGORITHM}]}", "a task graph instead of one collective (docs/workloads.md)"},
    {"synthesis", "section", "", "required", "a map", "how the schedule is made"},
    {"synthesis.algorithm", "component", "", "required", "a name, or {type: NAME, PARAM: VALUE, ...} (photonsim list)", "the collective algorithm or joint synthesizer", true},
    {"synthesis.planner", "component", "", "the algorithm's own", "a name, or {type: NAME, ...} (photonsim list)", "when to reconfigure and to which topology", true},
    {"synthesis.topology", "component", "", "none", "a name, or {type: NAME, ...} (photonsim list)", "what the fabric holds before step 0", true},
    {"synthesis.static_topology", "component", "", "synthesis.topology", "a name, or {type: NAME, ...}; {type: from_step, step: K}", "the topology of the static planner", true},
    {"synthesis.reconfigurations", "integer", "topologies", "auto", "auto, or >= 1", "joint synthesizers: how many topologies (auto: the lowest predicted time)"},
    {"output", "section", "", "none", "a map", "where results go"},
    {"output.dir", "text", "", "none", "a folder", "the run's results (as --out)"},
  };
  // clang-format on
}

std::string last_name(std::string_view path) {
  const auto dot = path.rfind('.');
  return std::string(dot == std::string_view::npos ? path : path.substr(dot + 1));
}

std::string parent_of(std::string_view path) {
  const auto dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string() : std::string(path.substr(0, dot));
}

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else
      out += c;
  }
  return out;
}

}  // namespace

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

const ConfigSchema& ConfigSchema::builtin() {
  static const ConfigSchema schema(builtin_keys());
  return schema;
}

const ConfigKey* ConfigSchema::find(std::string_view path) const {
  for (const ConfigKey& key : keys_)
    if (key.path == path) return &key;
  return nullptr;
}

std::vector<std::string> ConfigSchema::children(std::string_view section) const {
  std::vector<std::string> out;
  for (const ConfigKey& key : keys_)
    if (parent_of(key.path) == section) out.push_back(last_name(key.path));
  return out;
}

bool ConfigSchema::settable(std::string_view path) const {
  if (find(path) != nullptr) return true;
  for (std::string parent = parent_of(path); !parent.empty(); parent = parent_of(parent)) {
    if (const ConfigKey* key = find(parent)) return key->open;
  }
  return false;
}

std::string ConfigSchema::nearest(std::string_view path) const {
  const std::string leaf = last_name(path);
  std::string best;
  size_t best_score = std::numeric_limits<size_t>::max();
  for (const ConfigKey& key : keys_) {
    // The whole path counts, and a right name under the wrong section
    // (workload.reconfig_delay) is close to where it belongs.
    const size_t score = std::min(edit_distance(path, key.path), 2 * edit_distance(leaf, last_name(key.path)) + 2);
    if (score < best_score) best_score = score, best = key.path;
  }
  return best;
}

std::optional<std::string> ConfigSchema::nearest_of(std::string_view name, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_distance = std::numeric_limits<size_t>::max();
  for (const std::string& candidate : candidates) {
    const size_t distance = edit_distance(name, candidate);
    if (distance < best_distance) best_distance = distance, best = candidate;
  }
  if (!best || 2 * best_distance > std::max(name.size(), best->size())) return std::nullopt;
  return best;
}

std::string ConfigSchema::markdown() const {
  std::string out = "| key | kind | unit | default | allowed | what it is |\n|---|---|---|---|---|---|\n";
  for (const ConfigKey& key : keys_) {
    out += "| `" + key.path + "` | " + key.kind + " | " + cell(key.unit) + " | " + cell(key.default_value) + " | " +
           cell(key.allowed) + " | " + cell(key.doc) + " |\n";
  }
  return out;
}

std::string ConfigSchema::text() const {
  std::string out;
  for (const ConfigKey& key : keys_) {
    if (key.kind == "section") continue;
    out += "  " + key.path + " (" + key.kind + (key.unit.empty() ? "" : ", " + key.unit) +
           "; default: " + key.default_value + "): " + key.doc + "\n";
  }
  return out;
}

}  // namespace photonsim
