#include "sim/config/config_loader.h"
#include "sim/interop/chakra_trace.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <cctype>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/error.h"
#include "core/spec/graph_node_error.h"
#include "core/input_file.h"
#include "core/memory_budget.h"
#include "sim/config/config_schema.h"
#include "sim/config/flow_item.h"
#include "sim/config/graph_memory_estimate.h"

namespace photonsim {
namespace {

// Every key a section accepts; anything else is reported with this list.
using KeyList = std::span<const std::string_view>;

// Sections' keys come from the schema (sim/config/config_schema.h).
// workload.graph nodes: the keys every node takes, then each type's.
constexpr std::string_view kComputeNodeKeys[]{"name", "type", "after", "gpus", "duration"};
constexpr std::string_view kCollectiveNodeKeys[]{"name",    "type", "after",     "collective", "gpus",
                                                 "message", "root", "algorithm", "planner"};
constexpr std::string_view kP2pNodeKeys[]{"name", "type", "after", "src", "dst", "bytes"};
constexpr std::string_view kDelayNodeKeys[]{"name", "type", "after", "gpus", "duration"};
constexpr std::string_view kAnyNodeKeys[]{"name", "type", "after", "gpus",  "duration",  "collective", "message",
                                          "root", "src",  "dst",   "bytes", "algorithm", "planner"};
// The workload keys that describe the one collective of a config without a graph.
constexpr std::string_view kSingleCollectiveKeys[]{"collective",   "message",     "root",
                                                   "distribution", "zipf_factor", "message_scope"};
constexpr EnumName<bool> kBooleanNames[] = {{false, "false"}, {true, "true"}};

std::string join(KeyList items) {
  std::string out;
  for (std::string_view item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

const char* describe(const YAML::Node& node) {
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  if (node.IsScalar()) return "a single value";
  return "nothing";
}

// A key whose value came from --set rather than from the file.
struct Override {
  std::string key;         // dotted path
  std::string assignment;  // the whole "key=value" text, quoted back in messages
};

// A --set as quoted back in messages: long values are cut to ~80 characters.
std::string shown_assignment(const std::string& assignment) {
  return assignment.size() <= 80
             ? assignment
             : assignment.substr(0, 77) + "... (" + std::to_string(assignment.size()) + " characters)";
}

// Splits "key=value"; the key is trimmed and must be a well-formed dotted path.
std::pair<std::string, std::string> split_assignment(const std::string& assignment) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos)
    throw Error("--set " + shown_assignment(assignment) + ": expected KEY=VALUE, e.g. fabric.gpus=8");
  const std::string key(trim(std::string_view(assignment).substr(0, equals)));
  if (key.empty()) throw Error("--set " + shown_assignment(assignment) + ": empty key before '='");
  if (key.front() == '.' || key.back() == '.' || key.find("..") != std::string::npos)
    throw Error("--set " + shown_assignment(assignment) + ": malformed key '" + key + "' (empty segment)");
  return {key, assignment.substr(equals + 1)};
}

YAML::Node parse_yaml(const std::string& yaml_text, const std::string& source_name) {
  if (const int line = second_yaml_document_line(yaml_text); line > 0) {
    throw Error(source_name + ":" + std::to_string(line) +
                ": a second YAML document ('---'); a config is exactly one document");
  }
  try {
    return YAML::Load(yaml_text);
  } catch (const YAML::ParserException& error) {
    throw Error(source_name + ":" + std::to_string(error.mark.line + 1) + ":" + std::to_string(error.mark.column + 1) +
                ": YAML syntax error: " + error.msg);
  }
}

// One key of the config, with the place it came from so messages can point at it.
struct Entry {
  YAML::Node value;
  std::string key;    // dotted path; empty for the root
  std::string where;  // "file:line", "file" or "--set key=value"
};

// Validates a parsed tree section by section. Holds only what messages need.
class Reader {
 public:
  Reader(std::string source, std::vector<Override> overrides, const MemoryBudget* budget)
      : source_(std::move(source)), overrides_(std::move(overrides)), budget_(budget) {}

  ExperimentConfig read(const YAML::Node& root_node) const {
    const Entry root{root_node, "", source_};
    if (!root_node.IsMap())
      fail(root, std::string("the config must be a YAML map of sections (got ") + describe(root_node) + ")");
    check_keys(root, true);

    ExperimentConfig config;
    config.source = source_;
    if (auto seed = find(root, "seed")) config.seed = integer<uint64_t>(*seed, 0, std::numeric_limits<uint64_t>::max());

    read_fabric(section(require(root, "fabric")), config.fabric);
    read_workload(section(require(root, "workload")), config);
    read_synthesis(section(require(root, "synthesis")), config.synthesis);
    if (auto output = find(root, "output")) {
      const Entry out = section(*output);
      if (auto dir = find(out, "dir")) config.output_dir = text(*dir);
    }
    config.key_locations = locations_;
    config.execution_columns = locations_.count("fabric.sync") > 0 || locations_.count("fabric.reconfiguration") > 0;
    config.bandwidth_scope_column = locations_.count("fabric.bandwidth_scope") > 0;
    config.inputs = inputs_;
    return config;
  }

  // Rewrites every file name read() resolved, in the tree it read, to its
  // absolute path: the config as saved (provenance's config.yaml) then runs
  // from any folder, its own above all.
  void make_file_names_absolute() const {
    for (const auto& [node, path] : file_names_) {
      YAML::Node name = node;  // a handle on the tree's scalar: assigning changes the tree
      name = std::filesystem::absolute(std::filesystem::path(path)).lexically_normal().string();
    }
  }

 private:
  // `node` names the file at `path` (resolved), for make_file_names_absolute.
  void names_file(const YAML::Node& node, const std::string& path) const {
    if (node.IsDefined() && node.IsScalar()) file_names_.emplace_back(node, path);
  }

  void read_fabric(const Entry& fabric, FabricSpec& f) const {
    f.gpus = integer<int>(require(fabric, "gpus"), 2, INT_MAX);
    if (auto ports = find(fabric, "ports")) f.ports = integer<int>(*ports, 1, INT_MAX);
    if (auto circuits = find(fabric, "circuits")) f.circuits = choice(*circuits, kCircuitKindNames);
    f.bandwidth = unit(require(fabric, "bandwidth"), parse_bandwidth, "must be positive");
    f.latency = time(require(fabric, "latency"));
    if (auto router = find(fabric, "router")) f.router = choice(*router, kRouterModeNames);
    if (auto packet = find(fabric, "packet")) f.packet = size(*packet, "chunk");
    if (auto header = find(fabric, "header")) f.header = unit(*header, parse_bytes, "must not be negative");
    if (auto order = find(fabric, "egress_order")) f.egress_order = choice(*order, kEgressOrderNames);
    if (auto delay = find(fabric, "reconfig_delay")) f.reconfig_delay = time(*delay);
    // The name is checked where the models live (the engine), located here.
    if (auto model = find(fabric, "reconfig_model")) f.reconfig_model = non_empty_text(*model);
    if (auto overhead = find(fabric, "step_overhead")) f.step_overhead = time(*overhead);
    if (auto sync = find(fabric, "sync")) f.sync = choice(*sync, kSyncModeNames);
    if (auto scope = find(fabric, "reconfiguration")) f.reconfiguration = choice(*scope, kReconfigurationScopeNames);
    if (auto preconfigure = find(fabric, "preconfigure")) f.preconfigure = choice(*preconfigure, kBooleanNames);
    if (auto priority = find(fabric, "priority")) f.priority = choice(*priority, kCommunicationPriorityNames);
    if (auto physical = find(fabric, "physical")) f.physical = read_physical(section(*physical), f);
    if (auto scope = find(fabric, "bandwidth_scope")) {
      f.bandwidth_scope = choice(*scope, kBandwidthScopeNames);
      if (f.bandwidth_scope == BandwidthScope::gpu) check_split_bandwidth(*scope, f);
    }
  }

  // A GPU's bandwidth split over its transmitters gives circuits of
  // different rates, which only barrier runs with store-and-forward and
  // whole reconfigurations model.
  void check_split_bandwidth(const Entry& scope, const FabricSpec& f) const {
    const std::string prefix = scope.key + ": gpu ";
    if (f.router != RouterMode::store_and_forward)
      fail(scope, prefix +
                      "needs fabric.router: store_and_forward (cut-through between circuits of different "
                      "rates is not modelled; got router " +
                      to_string(f.router) + ")");
    if (f.sync != SyncMode::barrier)
      fail(scope, prefix +
                      "needs fabric.sync: barrier (a dataflow run changes circuits one at a time, and the "
                      "split rates depend on the whole configuration)");
    if (f.reconfiguration != ReconfigurationScope::all)
      fail(scope, prefix + "needs fabric.reconfiguration: all (got " + to_string(f.reconfiguration) +
                      ": a circuit kept across a partial reconfiguration would change rate with the circuits "
                      "around it, re-dividing its GPU's transmitters without going dark)");
    if (f.bandwidth.bps() % f.ports != 0)
      fail(scope, prefix + "splits fabric.bandwidth (" + std::to_string(f.bandwidth.bps()) +
                      " bps) over fabric.ports = " + std::to_string(f.ports) +
                      " transmitters: it must be a multiple of " + std::to_string(f.ports) + " bps");
  }

  PhysicalSpec read_physical(const Entry& physical, const FabricSpec& f) const {
    PhysicalSpec p;
    const Entry servers = require(physical, "servers");
    p.servers = grid_shape(servers);
    const Entry tiles = require(physical, "tiles");
    p.tiles = grid_shape(tiles);
    const Entry mesh = require(physical, "mesh");
    p.mesh = grid_shape(mesh);
    // PCCL's largest mesh is 256 x 256; past 1024 x 1024 a mesh alone takes gigabytes.
    if (p.mesh.rows > 1024 || p.mesh.cols > 1024)
      fail(mesh, mesh.key + ": at most 1024x1024 MZIs per server (got " + shape_text(p.mesh) + ")");
    if (static_cast<int64_t>(p.servers.count()) * p.tiles.count() != f.gpus)
      fail(tiles, "fabric.physical: servers " + shape_text(p.servers) + " x tiles " + shape_text(p.tiles) + " hold " +
                      std::to_string(static_cast<int64_t>(p.servers.count()) * p.tiles.count()) +
                      " GPUs (one per tile), fabric.gpus is " + std::to_string(f.gpus));
    // Each tile's transmitters sit on its first MZI column and its receivers
    // on its last, one row per port.
    if (p.mesh.cols < 2 * p.tiles.cols || p.mesh.rows < f.ports * p.tiles.rows)
      fail(mesh, mesh.key + ": a mesh of " + shape_text(p.mesh) + " MZIs gives each of the " + shape_text(p.tiles) +
                     " tiles fewer than 2 columns or fewer than fabric.ports = " + std::to_string(f.ports) +
                     " rows (need at least " + std::to_string(f.ports * p.tiles.rows) + "x" +
                     std::to_string(2 * p.tiles.cols) + ")");
    if (auto w = find(physical, "wavelengths")) p.wavelengths = integer<int>(*w, 1, 1024);
    if (auto fibers = find(physical, "fibers")) {
      p.fibers = integer<int>(*fibers, 1, 1 << 20);
      if (p.fibers > std::min(p.mesh.rows, p.mesh.cols))
        fail(*fibers, fibers->key + " = " + std::to_string(p.fibers) +
                          ": every fiber attaches to its own MZI on the server's side, and the mesh " +
                          shape_text(p.mesh) + " has " + std::to_string(std::min(p.mesh.rows, p.mesh.cols)) +
                          " on its shorter side");
    }
    if (auto loss = find(physical, "mzi_loss_db")) p.mzi_loss_db = real(*loss, 0.0, 100.0);
    if (auto loss = find(physical, "tile_loss_db")) p.tile_loss_db = real(*loss, 0.0, 100.0);
    if (auto loss = find(physical, "fiber_loss_db")) p.fiber_loss_db = real(*loss, 0.0, 100.0);
    if (auto limit = find(physical, "solver_time_limit_s")) p.solver_time_limit_s = real(*limit, 0.001, 86400.0);
    if (auto directions = find(physical, "fiber_directions")) {
      const std::string value = text(*directions);
      if (value != "separate" && value != "shared")
        fail(*directions, directions->key + " must be separate or shared (got " + quoted(value) + ")");
      p.shared_fibers = value == "shared";
    }
    return p;
  }

  // "AxB": rows x columns, each >= 1, at most 4096.
  GridShape grid_shape(const Entry& entry) const {
    const std::string value = text(entry);
    const auto x = value.find('x');
    const auto part = [&](std::string_view digits) { return small_number(digits); };
    const std::optional<int> rows = x == std::string::npos ? std::nullopt : part(std::string_view(value).substr(0, x));
    const std::optional<int> cols = x == std::string::npos ? std::nullopt : part(std::string_view(value).substr(x + 1));
    if (!rows || !cols || *rows < 1 || *cols < 1 || *rows > 4096 || *cols > 4096)
      fail(entry, entry.key + " must be ROWSxCOLS, each 1..4096 (got " + quoted(value) + ")");
    return GridShape{*rows, *cols};
  }

  static std::string shape_text(const GridShape& g) { return std::to_string(g.rows) + "x" + std::to_string(g.cols); }

  void read_workload(const Entry& workload, ExperimentConfig& config) const {
    const int gpus = config.fabric.gpus;
    WorkloadSpec& w = config.workload;
    if (auto graph = find(workload, "graph")) {
      // What a task graph cannot run on. Chakra traces are checked once
      // read: photonsim's own export of a schedule runs as that schedule, on
      // any fabric a schedule runs on.
      const auto runs_as_graph = [&] {
        if (config.fabric.bandwidth_scope != BandwidthScope::circuit)
          fail(*graph,
               "workload.graph runs with fabric.bandwidth_scope: circuit only (a task graph changes circuits "
               "one at a time, and the split rates depend on the whole configuration)");
        // A node's collective is synthesized on its own GPUs, numbered from 0:
        // the physical layer's placement of GPUs on tiles does not carry over.
        if (config.fabric.physical)
          fail(*graph,
               "workload.graph cannot run on fabric.physical yet (a node's collective is planned on its own "
               "GPUs, not where they sit on the servers); drop one of the two");
      };
      const bool chakra = graph->value.IsMap();
      if (!chakra) runs_as_graph();
      for (std::string_view name : kSingleCollectiveKeys) {
        if (auto given = find(workload, name))
          fail(*given, given->key +
                           " is not used with workload.graph (each node names its own collective, message "
                           "and root)");
      }
      if (auto chunk = find(workload, "chunk")) w.chunk = size(*chunk, "whole");
      read_graph(*graph, gpus, config);
      if (chakra && config.graph) runs_as_graph();
      return;
    }
    const Entry collective = require(workload, "collective");
    try {
      w.collective = parse_collective(text(collective));
    } catch (const Error& error) {
      fail(collective, collective.key + ": " + error.what());
    }
    w.message = size(require(workload, "message"), nullptr);
    if (auto chunk = find(workload, "chunk")) w.chunk = size(*chunk, "whole");
    if (auto root_gpu = find(workload, "root")) w.root = integer<int>(*root_gpu, 0, gpus - 1);
    if (auto distribution = find(workload, "distribution"))
      w.distribution = choice(*distribution, kFlowDistributionNames);
    if (auto factor = find(workload, "zipf_factor")) {
      if (w.distribution != FlowDistribution::zipf)
        fail(*factor, factor->key + " applies only to workload.distribution: zipf");
      w.zipf_factor = real(*factor, 0.0, 100.0);
    }
    if (auto scope = find(workload, "message_scope")) apply_message_scope(*scope, gpus, w);
    if (w.distribution != FlowDistribution::uniform && w.collective != Collective::alltoall)
      fail(collective, "workload.distribution: " + std::string(to_string(w.distribution)) +
                           " needs workload.collective: alltoall (flow sizes are per pair)");
  }

  // ReTri and nccl-tests size an all-to-all by the per-GPU buffer m: each
  // of the n flows (own block included) is m / n.
  void apply_message_scope(const Entry& scope, int gpus, WorkloadSpec& w) const {
    static constexpr EnumName<bool> kScopes[] = {{false, "flow"}, {true, "gpu"}};
    if (!choice(scope, kScopes)) return;
    if (w.collective != Collective::alltoall)
      fail(scope, scope.key +
                      ": gpu applies to workload.collective: alltoall (other collectives' message is per GPU already)");
    const int64_t per_flow = w.message.count() / gpus;
    if (per_flow < 1)
      fail(scope, scope.key + ": gpu splits workload.message over " + std::to_string(gpus) +
                      " flows: less than one byte each");
    w.message = Bytes(per_flow);
  }

  // Where the nodes of a graph stand: lines of `file` (marks counted from
  // `first_line`, where the text yaml-cpp parsed began), or one --set for all.
  struct GraphSource {
    std::string file;
    std::string fixed;  // non-empty: every node located there (an inline graph from --set; a line of a file)
    int first_line = 0;
    std::string at(const YAML::Mark& mark) const {
      if (!fixed.empty()) return fixed;
      if (mark.is_null()) return file;
      return file + ":" + std::to_string(first_line + mark.line + 1);
    }
  };

  // workload.graph: a list of nodes, or a YAML file holding one (relative to
  // the config's folder, also when given with --set: one rule for files and sweeps).
  void read_graph(const Entry& graph, int gpus, ExperimentConfig& config) const {
    GraphSource source;
    std::vector<TaskNode> nodes;
    if (graph.value.IsScalar()) {
      const std::string named = non_empty_text(graph);
      source.file = (std::filesystem::path(source_).parent_path() / std::filesystem::path(named)).string();
      // Regular files only: a device or a pipe (/dev/zero, /dev/stdin) would
      // never end.
      // Before reading it: what its nodes will take, from its size.
      if (budget_ != nullptr) {
        std::error_code ignored;
        const uint64_t size = std::filesystem::file_size(source.file, ignored);
        if (!ignored) {
          budget_->check(graph_file_memory_estimate(size),
                         source.file + ": workload.graph: a graph file of " + std::to_string(size) + " bytes");
        }
      }
      std::string text;
      try {
        text = read_input_file(source.file, kGraphInput);
      } catch (const Error& error) {
        fail(graph, graph.key + ": " + error.what() + " (a path relative to the folder of " + source_ + ")");
      }
      inputs_.push_back({"graph file (" + graph.key + ")", source.file});
      names_file(graph.value, source.file);
      read_graph_file(text, graph, gpus, source, nodes, config);
    } else if (graph.value.IsSequence()) {
      source.file = source_;
      if (graph.where.starts_with("--set ")) source.fixed = graph.where;
      if (graph.value.size() == 0) fail(graph, graph.key + " has no nodes");
      read_items(graph.value, graph, gpus, source, nodes, config);
    } else if (graph.value.IsMap()) {
      read_chakra_graph(graph, gpus, config);
      return;
    } else {
      fail(graph, graph.key +
                      " must be a list of nodes, the name of a YAML file holding one, or {chakra: PREFIX} (got " +
                      describe(graph.value) + ")");
    }
    build_graph(std::move(nodes), gpus, graph, config);
  }

  // yaml-cpp's tree takes about 6 KB per node (a dozen YAML nodes of ~500
  // bytes each): a 200,000-node file would hold 1.2 GB at once. A file that
  // is a plain block list (every line at column 0 is a "- " item, a comment
  // or blank; no anchors or aliases, one document) is therefore parsed a
  // batch of items at a time, lines counted from the batch's first, so the
  // tree never holds more than one batch; any other file, or a batch
  // yaml-cpp refuses (then the whole file tells what is wrong, and where), is
  // parsed whole.
  void read_graph_file(const std::string& text, const Entry& graph, int gpus, GraphSource& source,
                       std::vector<TaskNode>& nodes, ExperimentConfig& config) const {
    constexpr size_t kItemsPerBatch = 512;
    const std::vector<std::pair<size_t, int>> items = block_list_items(text);
    if (!items.empty() && second_yaml_document_line(text) == 0) {
      try {
        std::vector<YAML::Node> fast;
        for (size_t k = 0; k < items.size(); k += kItemsPerBatch) {
          const size_t last = std::min(k + kItemsPerBatch, items.size());
          const size_t begin = items[k].first;
          const size_t end = last < items.size() ? items[last].first : text.size();
          // Items on one line each, in flow_item's subset, are built without
          // yaml-cpp's parser (yaml-cpp's nodes, each located at its line).
          fast.clear();
          for (size_t i = k; i < last && fast.size() == i - k; ++i) {
            const size_t stop = i + 1 < items.size() ? items[i + 1].first : text.size();
            const std::string_view item = std::string_view(text).substr(items[i].first, stop - items[i].first);
            const size_t newline = std::min(item.find('\n'), item.size());
            if (!only_comments(item.substr(newline))) break;
            if (std::optional<YAML::Node> node = flow_item(item.substr(0, newline))) fast.push_back(std::move(*node));
          }
          if (fast.size() == last - k) {
            GraphSource at_line = source;
            for (size_t i = k; i < last; ++i) {
              at_line.fixed = source.file + ":" + std::to_string(items[i].second + 1);
              read_item(fast[i - k], graph, gpus, at_line, nodes, config);
            }
            continue;
          }
          const YAML::Node batch = YAML::Load(text.substr(begin, end - begin));
          if (!batch.IsSequence()) throw YAML::ParserException(YAML::Mark::null_mark(), "not a list");
          source.first_line = items[k].second;
          read_items(batch, graph, gpus, source, nodes, config);
        }
        source.first_line = 0;
        return;
      } catch (const YAML::ParserException&) {
        nodes.clear();
        config.node_locations.clear();
        source.first_line = 0;
      }
    }
    const YAML::Node list = parse_yaml(text, source.file);
    if (!list.IsSequence()) {
      const int line = list.Mark().is_null() ? 1 : list.Mark().line + 1;
      throw Error(source.file + ":" + std::to_string(line) + ": " + graph.key +
                  ": a graph file must hold a YAML list of nodes (got " + describe(list) + ")");
    }
    if (list.size() == 0) fail(graph, graph.key + " has no nodes");
    read_items(list, graph, gpus, source, nodes, config);
  }

  // Where each item of a plain block list starts (byte offset, line from 0),
  // or nothing when the text is not one (see read_graph_file).
  static std::vector<std::pair<size_t, int>> block_list_items(const std::string& text) {
    std::vector<std::pair<size_t, int>> items;
    if (text.find_first_of("&*") != std::string::npos) return {};
    int line = 0;
    for (size_t at = 0; at < text.size(); ++line) {
      size_t next = text.find('\n', at);
      next = next == std::string::npos ? text.size() : next + 1;
      const char first = text[at];
      const char second = at + 1 < next ? text[at + 1] : '\n';
      if (first == '-' && (second == ' ' || second == '\t' || second == '\r' || second == '\n')) {
        items.emplace_back(at, line);
      } else if (first == ' ' || first == '\t') {
        // Inside an item, or blank; before the first item only blank.
        if (items.empty() && !trim(std::string_view(text).substr(at, next - at)).empty()) return {};
      } else if (first != '#' && first != '\r' && first != '\n') {
        return {};
      }
      at = next;
    }
    return items;
  }

  // Blank lines and comments only.
  static bool only_comments(std::string_view text) {
    while (!text.empty()) {
      const size_t newline = std::min(text.find('\n'), text.size());
      const std::string_view line = trim(text.substr(0, newline));
      if (!line.empty() && line.front() != '#') return false;
      text.remove_prefix(std::min(newline + 1, text.size()));
    }
    return true;
  }

  // The nodes of one parsed list (or batch of a list), appended to `nodes`.
  void read_items(const YAML::Node& list, const Entry& graph, int gpus, const GraphSource& source,
                  std::vector<TaskNode>& nodes, ExperimentConfig& config) const {
    for (size_t i = 0; i < list.size(); ++i) read_item(list[i], graph, gpus, source, nodes, config);
  }

  void read_item(const YAML::Node& item, const Entry& graph, int gpus, const GraphSource& source,
                 std::vector<TaskNode>& nodes, ExperimentConfig& config) const {
    const std::string at = source.at(item.Mark());
    nodes.push_back(read_node(item, nodes.size(), source, at, gpus));
    const auto [first, fresh] = config.node_locations.emplace(nodes.back().name, at);
    if (!fresh)
      throw Error(at + ": " + graph.key + ": node '" + nodes.back().name + "': the name is used by another node (" +
                  first->second + ")");
  }

  // workload.graph: {chakra: PREFIX}: Chakra traces PREFIX.0.et, PREFIX.1.et,
  // ... (relative to the config's folder), one rank per GPU.
  void read_chakra_graph(const Entry& graph, int gpus, ExperimentConfig& config) const {
    std::optional<Entry> prefix, replicate, algorithms;
    for (const auto& pair : graph.value) {
      const Entry key{pair.first, graph.key, graph.where};
      const std::string name = pair.first.IsScalar() ? pair.first.Scalar() : std::string("?");
      if (name == "chakra") {
        prefix = Entry{pair.second, graph.key + ".chakra", graph.where};
      } else if (name == "replicate") {
        replicate = Entry{pair.second, graph.key + ".replicate", where(graph.key + ".replicate", pair.first.Mark())};
      } else if (name == "algorithms") {
        algorithms = Entry{pair.second, graph.key + ".algorithms", where(graph.key + ".algorithms", pair.first.Mark())};
      } else {
        fail(key, graph.key + " must be a list of nodes, the name of a YAML file holding one, or {chakra: PREFIX} " +
                      "(optionally with replicate: N, algorithms: {COLLECTIVE: ALGORITHM}) (got the key '" + name +
                      "'; valid keys: chakra, replicate, algorithms)");
      }
    }
    if (!prefix) fail(graph, graph.key + " as a map needs chakra: PREFIX");
    const int copies = replicate ? integer<int>(*replicate, 2, INT_MAX) : 0;
    const std::string named = non_empty_text(*prefix);
    const std::string path = (std::filesystem::path(source_).parent_path() / std::filesystem::path(named)).string();
    names_file(prefix->value, path);
    if (budget_ != nullptr) {
      // Before parsing them: what their nodes will take, from the files' sizes.
      uint64_t bytes = 0;
      int ranks = 0;
      std::error_code ignored;
      for (;; ++ranks) {
        const std::string rank = path + "." + std::to_string(ranks) + ".et";
        if (!std::filesystem::is_regular_file(rank, ignored)) break;
        bytes += std::filesystem::file_size(rank, ignored);
      }
      if (copies > 0) {
        ranks = copies;
        bytes = bytes > UINT64_MAX / static_cast<uint64_t>(copies) ? UINT64_MAX : bytes * static_cast<uint64_t>(copies);
      }
      budget_->check(graph_file_memory_estimate(bytes), path + ": workload.graph: Chakra traces of " +
                                                            std::to_string(ranks) + " ranks, " + std::to_string(bytes) +
                                                            " bytes");
    }
    ChakraGraph chakra;
    try {
      chakra = read_chakra_traces(path, path, copies);
    } catch (const Error& error) {
      fail(*prefix, prefix->key + ": " + error.what());
    }
    if (chakra.ranks > gpus) {
      fail(*prefix, prefix->key + ": the traces hold " + std::to_string(chakra.ranks) + " ranks but fabric.gpus is " +
                        std::to_string(gpus) + " (one GPU per rank)");
    }
    for (const std::string& file : chakra.files) inputs_.push_back({"Chakra trace (" + prefix->key + ")", file});
    if (chakra.schedule) {
      // photonsim's own export, unmodified: the schedule it was written
      // from, replayed on this fabric (chakra_trace.h), not a task graph.
      if (chakra.ranks != gpus) {
        fail(*prefix, prefix->key + ": the traces are photonsim's export of a schedule on " +
                          std::to_string(chakra.ranks) + " GPUs but fabric.gpus is " + std::to_string(gpus) +
                          " (it runs on the fabric it was made for)");
      }
      WorkloadSpec& w = config.workload;
      w.collective = chakra.schedule->collective();
      w.message = chakra.schedule->message();
      w.root = chakra.schedule->root();
      config.imported_schedule_source = path + ".0.et";
      config.imported_schedule = std::make_shared<const Schedule>(std::move(*chakra.schedule));
      return;
    }
    for (size_t i = 0; i < chakra.nodes.size(); ++i) config.node_locations[chakra.nodes[i].name] = chakra.locations[i];
    for (const std::string& w : chakra.warnings) config.warnings.push_back(path + ": " + w);
    if (chakra.nodes.empty()) fail(*prefix, prefix->key + ": the traces hold no node photonsim simulates");
    if (algorithms) {
      // As ASTRA-sim's per-collective implementations: the algorithm each
      // kind of collective in the trace runs (others: synthesis.algorithm).
      if (!algorithms->value.IsMap())
        fail(*algorithms, algorithms->key + " must be a map from a collective (alltoall, allreduce, reducescatter, " +
                              "allgather, broadcast) to an algorithm (got " + describe(algorithms->value) + ")");
      std::map<Collective, std::string> chosen;
      for (const auto& pair : algorithms->value) {
        const Entry key{pair.first, algorithms->key, algorithms->where};
        const std::string name = pair.first.IsScalar() ? pair.first.Scalar() : std::string("?");
        Collective collective = Collective::allreduce;
        try {
          collective = parse_collective(name);
        } catch (const Error& error) {
          fail(key, algorithms->key + ": " + error.what());
        }
        chosen[collective] = non_empty_text(Entry{pair.second, algorithms->key + "." + name, algorithms->where});
      }
      for (TaskNode& node : chakra.nodes) {
        const auto it = chosen.find(node.collective);
        if (node.kind == TaskKind::collective && it != chosen.end()) node.algorithm = it->second;
      }
    }
    build_graph(std::move(chakra.nodes), gpus, graph, config);
  }

  void build_graph(std::vector<TaskNode> nodes, int gpus, const Entry& graph, ExperimentConfig& config) const {
    if (budget_ != nullptr) {
      uint64_t edges = 0;
      for (const TaskNode& node : nodes) edges += node.after.size();
      budget_->check(graph_memory_estimate(nodes.size(), edges), graph.where + ": " + graph.key + ": a graph of " +
                                                                     std::to_string(nodes.size()) + " nodes and " +
                                                                     std::to_string(edges) + " dependencies");
    }
    try {
      config.graph = TaskGraph::build(std::move(nodes), gpus);
    } catch (const GraphNodeError& error) {
      // Point at the node's line (or its Chakra file and node id).
      const auto at = config.node_locations.find(error.node());
      throw Error((at == config.node_locations.end() ? graph.where : at->second) + ": " + error.what());
    } catch (const Error& error) {
      throw Error(graph.where + ": " + error.what());
    }
  }

  TaskNode read_node(const YAML::Node& item, size_t index, const GraphSource& source, const std::string& at,
                     int gpus) const {
    const std::string numbered = "workload.graph: node " + std::to_string(index);
    if (!item.IsMap())
      throw Error(at + ": " + numbered + " must be a map with a name and a type (got " + describe(item) + ")");
    TaskNode node;
    const YAML::Node name = item["name"];
    if (!name.IsDefined() || name.IsNull()) throw Error(at + ": " + numbered + " has no name");
    if (!name.IsScalar() || trim(name.Scalar()).empty())
      throw Error(at + ": " + numbered + ": name must be a non-empty single value");
    node.name = name.Scalar();
    const std::string prefix = "workload.graph: node '" + node.name + "'";
    const auto node_fail = [&](const std::string& what) -> void { throw Error(at + ": " + prefix + ": " + what); };
    const auto field = [&](std::string_view key) -> std::optional<Entry> {
      for (const auto& pair : item) {
        if (pair.first.IsScalar() && pair.first.Scalar() == key)
          return Entry{pair.second, prefix + ": " + std::string(key), source.at(pair.first.Mark())};
      }
      return std::nullopt;
    };
    const auto required = [&](std::string_view key) -> Entry {
      if (auto entry = field(key)) return *entry;
      node_fail("missing required key '" + std::string(key) + "'");
      return {};
    };

    node.kind = choice(required("type"), kTaskKindNames);
    const KeyList valid = node.kind == TaskKind::compute      ? KeyList(kComputeNodeKeys)
                          : node.kind == TaskKind::collective ? KeyList(kCollectiveNodeKeys)
                          : node.kind == TaskKind::delay      ? KeyList(kDelayNodeKeys)
                                                              : KeyList(kP2pNodeKeys);
    const std::string listing = std::string("valid keys of a ") + to_string(node.kind) + " node: " + join(valid);
    std::set<std::string> seen;
    for (const auto& pair : item) {
      const Entry key{pair.first, prefix, source.at(pair.first.Mark())};
      if (!pair.first.IsScalar()) fail(key, prefix + ": keys must be plain names");
      const std::string name_text = pair.first.Scalar();
      if (!seen.insert(name_text).second) fail(key, prefix + ": duplicate key '" + name_text + "'");
      const auto in = [&](KeyList keys) { return std::find(keys.begin(), keys.end(), name_text) != keys.end(); };
      if (!in(kAnyNodeKeys)) {
        const auto near = ConfigSchema::nearest_of(name_text, std::vector<std::string>(valid.begin(), valid.end()));
        fail(key, prefix + ": unknown key '" + name_text + "' (" + listing + ")" +
                      (near ? "; did you mean '" + *near + "'?" : std::string()));
      }
      if (!in(valid))
        fail(key, prefix + ": key '" + name_text + "' does not apply to a " + to_string(node.kind) + " node (" +
                      listing + ")");
    }

    if (auto after = field("after")) node.after = names(*after);
    switch (node.kind) {
      case TaskKind::compute:
        node.gpus = gpu_list(required("gpus"), source, gpus);
        node.duration = time(required("duration"));
        break;
      case TaskKind::collective: {
        const Entry collective = required("collective");
        try {
          node.collective = parse_collective(text(collective));
        } catch (const Error& error) {
          fail(collective, collective.key + ": " + error.what());
        }
        node.gpus = gpu_list(required("gpus"), source, gpus);
        node.message = size(required("message"), nullptr);
        node.root = node.gpus.empty() ? 0 : node.gpus.front();
        if (auto root = field("root")) {
          if (node.collective != Collective::broadcast)
            fail(*root, root->key + " applies only to collective: broadcast");
          node.root = integer<int>(*root, 0, INT_MAX);
        }
        if (auto algorithm = field("algorithm")) node.algorithm = non_empty_text(*algorithm);
        if (auto planner = field("planner")) node.planner = non_empty_text(*planner);
        break;
      }
      case TaskKind::p2p:
        node.src = integer<int>(required("src"), 0, INT_MAX);
        node.dst = integer<int>(required("dst"), 0, INT_MAX);
        node.bytes = size(required("bytes"), nullptr);
        break;
      case TaskKind::delay:
        if (auto on = field("gpus")) node.gpus = gpu_list(*on, source, gpus);
        node.duration = time(required("duration"));
        break;
    }
    return node;
  }

  // `after: [a, b]`, or one name.
  std::vector<std::string> names(const Entry& entry) const {
    if (entry.value.IsScalar()) return {non_empty_text(entry)};
    if (!entry.value.IsSequence())
      fail(entry, entry.key + " must be a node name or a list of them (got " + describe(entry.value) + ")");
    std::vector<std::string> out;
    for (const auto& item : entry.value) out.push_back(non_empty_text(Entry{item, entry.key, entry.where}));
    return out;
  }

  // `gpus: ["0-3", 8, "16-31/4"]`: ids, inclusive ranges a-b and strided
  // ranges a-b/s (a, a+s, ... up to b); one item alone is a list of one.
  std::vector<int> gpu_list(const Entry& entry, const GraphSource& source, int gpus) const {
    if (!entry.value.IsScalar() && !entry.value.IsSequence())
      fail(entry, entry.key + " must be a list of GPU ids and ranges such as [\"0-3\", 8] (got " +
                      describe(entry.value) + ")");
    std::vector<YAML::Node> items;
    if (entry.value.IsScalar()) {
      items.push_back(entry.value);
    } else {
      for (const auto& item : entry.value) items.push_back(item);
    }
    std::vector<int> out;
    for (const YAML::Node& item : items) {
      const Entry one{item, entry.key, item.Mark().is_null() ? entry.where : source.at(item.Mark())};
      const std::string value = text(one);
      const auto bad = [&]() {
        fail(one, one.key + ": " + quoted(value) + " is neither a GPU id nor a range a-b or a-b/s (e.g. 0-7/2)");
      };
      const std::string_view body = trim(value);
      const auto dash = body.find('-');
      if (dash == std::string_view::npos) {
        const auto id = small_number(body);
        if (!id) bad();
        out.push_back(*id);
        continue;
      }
      const std::string_view rest = body.substr(dash + 1);
      const auto slash = rest.find('/');
      const auto first = small_number(body.substr(0, dash));
      const auto last = small_number(rest.substr(0, slash));
      const auto stride =
          slash == std::string_view::npos ? std::optional<int>(1) : small_number(rest.substr(slash + 1));
      if (!first || !last || !stride || *stride == 0) bad();
      if (*first > *last) fail(one, one.key + ": the range " + quoted(value) + " runs backwards");
      // Checked here too (TaskGraph checks ids) so a wild range allocates nothing.
      if (*last >= gpus)
        fail(one, one.key + ": GPU " + std::to_string(*last) + " is outside 0.." + std::to_string(gpus - 1) +
                      " (fabric.gpus is " + std::to_string(gpus) + ")");
      for (int64_t g = *first; g <= *last; g += *stride) out.push_back(static_cast<int>(g));
    }
    return out;
  }

  // Digits only, at most INT_MAX.
  static std::optional<int> small_number(std::string_view digits) {
    digits = trim(digits);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    int value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return value;
  }

  void read_synthesis(const Entry& synthesis, SynthesisSpec& s) const {
    std::tie(s.algorithm, s.algorithm_params) = algorithm_spec(require(synthesis, "algorithm"));
    if (auto planner = find(synthesis, "planner"))
      std::tie(s.planner, s.planner_params) = named_component(*planner, "planner");
    if (auto topology = find(synthesis, "topology")) s.topology = topology_spec(*topology);
    if (auto fixed = find(synthesis, "static_topology")) s.static_topology = topology_spec(*fixed);
    if (auto count = find(synthesis, "reconfigurations")) {
      if (text(*count) != "auto") {
        const std::string value = text(*count);
        if (value.find_first_not_of("0123456789") != std::string::npos)
          fail(*count, count->key + " must be auto or an integer >= 1 (got '" + value + "')");
        s.reconfigurations = integer<int>(*count, 1, INT_MAX);
      }
    }
  }

  [[noreturn]] void fail(const Entry& entry, const std::string& message) const {
    throw Error(entry.where + ": " + message);
  }

  // Overrides win over file lines: their nodes carry marks of the --set text.
  std::string where(const std::string& key, const YAML::Mark& mark) const {
    for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it) {
      if (key == it->key || key.starts_with(it->key + ".")) return "--set " + shown_assignment(it->assignment);
    }
    if (mark.is_null()) {
      // No mark: a map that an override created on its way to a deeper key.
      for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it) {
        if (it->key.starts_with(key + ".")) return "--set " + shown_assignment(it->assignment);
      }
      return source_;
    }
    return source_ + ":" + std::to_string(mark.line + 1);
  }

  std::string child_key(const Entry& parent, std::string_view name) const {
    return parent.key.empty() ? std::string(name) : parent.key + "." + std::string(name);
  }

  // Rejects non-scalar, duplicate and (when `known_only`) keys the schema
  // does not list under this section, naming the valid ones and the nearest.
  void check_keys(const Entry& map, bool known_only) const {
    std::set<std::string> seen;
    const std::vector<std::string> valid = ConfigSchema::builtin().children(map.key);
    for (const auto& pair : map.value) {
      const std::string name = pair.first.IsScalar() ? pair.first.Scalar() : "";
      const std::string dotted = child_key(map, name);
      const Entry key{pair.first, dotted, where(dotted, pair.first.Mark())};
      const std::string scope = map.key.empty() ? "the top level" : map.key;
      if (!pair.first.IsScalar()) fail(key, "keys under " + scope + " must be plain names");
      if (!seen.insert(name).second) fail(key, "duplicate key '" + key.key + "'");
      if (!known_only || std::find(valid.begin(), valid.end(), name) != valid.end()) continue;
      const std::string listing = map.key.empty() ? "valid top-level keys" : "valid keys under " + map.key;
      std::vector<std::string_view> names(valid.begin(), valid.end());
      std::string hint;
      if (const auto near = ConfigSchema::nearest_of(name, valid))
        hint = "; did you mean '" + child_key(map, *near) + "'?";
      fail(key, "unknown key '" + key.key + "' (" + listing + ": " + join(names) + ")" + hint);
    }
  }

  Entry section(const Entry& entry) const {
    if (!entry.value.IsMap()) fail(entry, entry.key + " must be a map (got " + describe(entry.value) + ")");
    check_keys(entry, true);
    return entry;
  }

  std::optional<Entry> find(const Entry& map, std::string_view name) const {
    for (const auto& pair : map.value) {
      if (pair.first.IsScalar() && pair.first.Scalar() == name) {
        const std::string key = child_key(map, name);
        Entry entry{pair.second, key, where(key, pair.first.Mark())};
        locations_[key] = entry.where;
        return entry;
      }
    }
    return std::nullopt;
  }

  Entry require(const Entry& map, std::string_view name) const {
    if (auto entry = find(map, name)) return *entry;
    fail(map, "missing required key '" + child_key(map, name) + "'");
  }

  std::string text(const Entry& entry) const {
    if (entry.value.IsNull()) fail(entry, entry.key + " has no value");
    if (!entry.value.IsScalar()) fail(entry, entry.key + " must be a single value (got " + describe(entry.value) + ")");
    return entry.value.Scalar();
  }

  std::string flow_text(const Entry& entry) const {
    YAML::Emitter out;
    out.SetSeqFormat(YAML::Flow);
    out.SetMapFormat(YAML::Flow);
    out << entry.value;
    return out.c_str();
  }

  std::string non_empty_text(const Entry& entry) const {
    std::string value = text(entry);
    if (trim(value).empty()) fail(entry, entry.key + " must not be empty");
    return value;
  }

  // yaml-cpp's conversion rejects fractions, words and overflow; we add the range.
  template <class T>
  T integer(const Entry& entry, T min, T max) const {
    const std::string value = text(entry);
    const std::string rule = max == std::numeric_limits<T>::max()
                                 ? ">= " + std::to_string(min)
                                 : "in " + std::to_string(min) + ".." + std::to_string(max);
    const std::string message = entry.key + " must be an integer " + rule + " (got " + quoted(value) + ")";
    // Stream extraction would wrap "-1" around for unsigned types.
    if (std::is_unsigned_v<T> && trim(value).starts_with('-')) fail(entry, message);
    T result{};
    try {
      result = entry.value.as<T>();
    } catch (const YAML::BadConversion&) {
      fail(entry, message);
    }
    if (result < min || result > max) fail(entry, message);
    return result;
  }

  double real(const Entry& entry, double min, double max) const {
    const std::string value = text(entry);
    const std::string message = entry.key + " must be a number in " + format_real(min) + ".." + format_real(max) +
                                " (got " + quoted(value) + ")";
    double result = 0;
    try {
      result = entry.value.as<double>();
    } catch (const YAML::BadConversion&) {
      fail(entry, message);
    }
    if (!(result >= min && result <= max)) fail(entry, message);
    return result;
  }

  static std::string format_real(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
  }

  template <class Enum, size_t N>
  Enum choice(const Entry& entry, const EnumName<Enum> (&names)[N]) const {
    const std::string value = text(entry);
    if (const auto option = value_named(names, value)) return *option;
    fail(entry, entry.key + " must be one of: " + names_of(names) + " (got " + quoted(value) + ")");
  }

  // The unit parsers see "-5ns" as "no number"; say what is actually wrong.
  template <class Parser>
  std::invoke_result_t<Parser&, std::string_view> unit(const Entry& entry, Parser parse, const char* sign_rule) const {
    const std::string value = text(entry);
    if (trim(value).starts_with('-')) fail(entry, entry.key + " " + sign_rule + " (got " + quoted(value) + ")");
    try {
      return parse(value);
    } catch (const UnitError& error) {
      fail(entry, entry.key + ": " + error.what());
    }
  }

  Time time(const Entry& entry) const { return unit(entry, parse_time, "must not be negative"); }

  // A positive size, or `zero_word` (if any) meaning Bytes(0).
  Bytes size(const Entry& entry, const char* zero_word) const {
    if (zero_word != nullptr && entry.value.IsScalar() && entry.value.Scalar() == zero_word) return Bytes(0);
    const Bytes bytes = unit(entry, parse_bytes, "must be positive");
    if (bytes.count() <= 0) {
      const std::string alternative = zero_word != nullptr ? " or '" + std::string(zero_word) + "'" : std::string();
      fail(entry, entry.key + " must be positive" + alternative + " (got " + quoted(text(entry)) + ")");
    }
    return bytes;
  }

  // `ring` or `{type: ring, param: value, ...}`; parameters stay strings for the generator.
  TopologySpec topology_spec(const Entry& entry) const {
    auto [type, params] = named_component(entry, "topology");
    if (const auto file = params.find("file"); file != params.end() && !file->second.empty()) {
      inputs_.push_back({"edge file (" + entry.key + ")", file->second});
      if (entry.value.IsMap()) names_file(entry.value["file"], file->second);
    }
    return TopologySpec{std::move(type), std::move(params)};
  }

  // `bruck` or `{type: bruck, radix: 3}`; parameters stay strings for the algorithm.
  // An algorithm read from a file (msccl) names it relative to the config's folder.
  // `file` may be a list (msccl: several algorithms, chosen by size): each
  // resolved, then one path a line.
  std::pair<std::string, std::map<std::string, std::string>> algorithm_spec(const Entry& entry) const {
    auto spec = named_component(entry, "algorithm");
    const auto file = spec.second.find("file");
    if (file == spec.second.end() || file->second.empty()) return spec;
    std::vector<std::string> paths{file->second};
    const YAML::Node listed = entry.value.IsMap() ? entry.value["file"] : YAML::Node();
    if (listed.IsDefined() && listed.IsSequence()) {
      const std::string key = child_key(entry, "file");
      paths.clear();
      for (const auto& item : listed) {
        const std::string path = non_empty_text(Entry{item, key, entry.where});
        if (path.find('\n') != std::string::npos) fail(entry, key + ": a file name holds a line break");
        paths.push_back(path);
      }
      if (paths.empty()) fail(entry, key + " lists no file");
    }
    std::string joined;
    const bool is_list = listed.IsDefined() && listed.IsSequence();
    for (size_t i = 0; i < paths.size(); ++i) {
      std::string& path = paths[i];
      if (!std::filesystem::path(path).is_absolute())
        path = (std::filesystem::path(source_).parent_path() / std::filesystem::path(path)).string();
      inputs_.push_back({"algorithm file (" + entry.key + ")", path});
      if (entry.value.IsMap()) names_file(is_list ? listed[i] : entry.value["file"], path);
      joined += (joined.empty() ? "" : "\n") + path;
    }
    file->second = joined;
    return spec;
  }

  std::pair<std::string, std::map<std::string, std::string>> named_component(const Entry& entry,
                                                                             const char* what) const {
    TopologySpec spec;
    if (entry.value.IsScalar()) {
      spec.type = non_empty_text(entry);
      return {spec.type, spec.params};
    }
    if (!entry.value.IsMap())
      fail(entry, entry.key + " must be " + (std::string(what) == "algorithm" ? "an " : "a ") + what +
                      " name or a map with a 'type' key (got " + describe(entry.value) + ")");
    check_keys(entry, false);
    spec.type = non_empty_text(require(entry, "type"));
    for (const auto& pair : entry.value) {
      const std::string name = pair.first.Scalar();
      if (name == "type") continue;
      const std::string key = child_key(entry, name);
      const Entry param{pair.second, key, where(key, pair.first.Mark())};
      // Lists (generator sets, dimensions, edge lists) travel as YAML flow text;
      // the generator parses and validates them.
      spec.params[name] = param.value.IsSequence() ? flow_text(param) : text(param);
    }
    return {spec.type, spec.params};
  }

  std::string source_;
  std::vector<Override> overrides_;
  const MemoryBudget* budget_;  // when given: graphs estimated against it before they are read and built
  mutable std::map<std::string, std::string> locations_;  // every key found, for ExperimentConfig::key_locations
  mutable std::vector<NamedPath> inputs_;                 // files the config names, for ExperimentConfig::inputs
  // The scalars that name those files, with the path each resolves to.
  mutable std::vector<std::pair<YAML::Node, std::string>> file_names_;
};

}  // namespace

int second_yaml_document_line(const std::string& text) {
  bool started = false, ended = false;
  int number = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const auto marker = [&](const char* m) {
      return line.rfind(m, 0) == 0 && (line.size() == 3 || std::isspace(static_cast<unsigned char>(line[3])));
    };
    const std::string_view body = trim(line);
    if (body.empty() || body.front() == '#') continue;
    if (marker("---")) {
      if (started || ended) return number;
      started = true;
    } else if (marker("...")) {
      ended = true;
    } else if (line.front() == '%' && !started) {
      continue;  // a directive before the document
    } else {
      if (ended) return number;
      started = true;
    }
  }
  return 0;
}

void apply_override(YAML::Node& root, const std::string& assignment) {
  const auto [key, value_text] = split_assignment(assignment);
  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::ParserException& error) {
    throw Error("--set " + shown_assignment(assignment) + ": invalid YAML value: " + error.msg);
  }
  // An empty document has no node to share, so give the caller's root one first.
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  // reset() rebinds `node`; plain assignment would overwrite the node it refers to.
  YAML::Node node;
  node.reset(root);
  std::string path;
  std::string_view rest = key;
  while (true) {
    const auto dot = rest.find('.');
    const std::string segment(rest.substr(0, dot));
    if (node.IsDefined() && !node.IsMap() && !node.IsNull())
      throw Error("--set " + shown_assignment(assignment) + ": cannot set '" + key + "' because " +
                  (path.empty() ? std::string("the config root") : "'" + path + "'") + " is not a map");
    if (dot == std::string_view::npos) {
      node[segment] = value;
      return;
    }
    path += (path.empty() ? "" : ".") + segment;
    node.reset(node[segment]);
    rest.remove_prefix(dot + 1);
  }
}

ExperimentConfig load_config_from_string(const std::string& yaml_text, const std::string& source_name,
                                         const std::vector<std::string>& overrides, const MemoryBudget* budget) {
  YAML::Node root = parse_yaml(yaml_text, source_name);
  std::vector<Override> applied;
  for (const std::string& assignment : overrides) {
    apply_override(root, assignment);
    applied.push_back({split_assignment(assignment).first, assignment});
  }
  const Reader reader(source_name, std::move(applied), budget);
  ExperimentConfig config = reader.read(root);
  // What an --out folder records as the config run (provenance): the file
  // with every --set applied, before defaults, its file names absolute.
  reader.make_file_names_absolute();
  YAML::Emitter resolved;
  resolved << root;
  config.resolved_yaml = std::string(resolved.c_str()) + "\n";
  return config;
}

ExperimentConfig load_config(const std::string& path, const std::vector<std::string>& overrides,
                             const MemoryBudget* budget) {
  ExperimentConfig config = load_config_from_string(read_input_file(path, kConfigInput), path, overrides, budget);
  config.inputs.insert(config.inputs.begin(), NamedPath{"config", path});
  return config;
}

}  // namespace photonsim
