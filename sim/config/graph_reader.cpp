// workload.graph: a list of nodes, or a YAML file holding one; each node's
// keys are the schema's (workload.graph[].*), read by their kinds' parsers.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string_view>

#include "core/input_file.h"
#include "core/memory_budget.h"
#include "core/spec/graph_node_error.h"
#include "sim/config/config_loader.h"
#include "sim/config/config_readers.h"
#include "sim/config/config_schema.h"
#include "sim/config/flow_item.h"
#include "sim/config/graph_memory_estimate.h"
#include "sim/config/key_parsers.h"

namespace photonsim {
namespace {

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

std::string join_names(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

TaskNode read_node(const YAML::Node& item, size_t index, const GraphSource& source, const std::string& at, int gpus) {
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
  const auto field = [&](std::string_view key) -> std::optional<ConfigValue> {
    for (const auto& pair : item) {
      if (pair.first.IsScalar() && pair.first.Scalar() == key)
        return ConfigValue{pair.second, prefix + ": " + std::string(key), source.at(pair.first.Mark())};
    }
    return std::nullopt;
  };
  const auto required = [&](std::string_view key) -> ConfigValue {
    if (auto value = field(key)) return *value;
    throw Error(at + ": " + prefix + ": missing required key '" + std::string(key) + "'");
  };

  // The keys come from the schema: those of every node, then the type's.
  const ConfigSchema& schema = ConfigSchema::builtin();
  const Locate locate = [&](const YAML::Mark& mark) { return source.at(mark); };
  const ConfigKey* type = schema.node_key("type");
  type->read_node(required("type"), gpus, locate, node);
  const std::vector<std::string> valid = schema.node_keys(to_string(node.kind));
  const std::string listing = std::string("valid keys of a ") + to_string(node.kind) + " node: " + join_names(valid);
  std::set<std::string> seen;
  for (const auto& pair : item) {
    const ConfigValue key{pair.first, prefix, source.at(pair.first.Mark())};
    if (!pair.first.IsScalar()) fail_at(key, prefix + ": keys must be plain names");
    const std::string name_text = pair.first.Scalar();
    if (!seen.insert(name_text).second) fail_at(key, prefix + ": duplicate key '" + name_text + "'");
    if (schema.node_key(name_text) == nullptr) {
      const auto near = ConfigSchema::nearest_of(name_text, valid);
      fail_at(key, prefix + ": unknown key '" + name_text + "' (" + listing + ")" +
                       (near ? "; did you mean '" + *near + "'?" : std::string()));
    }
    if (std::find(valid.begin(), valid.end(), name_text) == valid.end())
      fail_at(key, prefix + ": key '" + name_text + "' does not apply to a " + to_string(node.kind) + " node (" +
                       listing + ")");
  }

  // The type's other keys in schema order, each through its line's parser
  // (the name has been read, as the node's identity in every message).
  const std::string_view kind = to_string(node.kind);
  for (const ConfigKey& key : schema.graph_keys()) {
    if (&key == type || !key.read_node) continue;
    if (std::find(key.node_types.begin(), key.node_types.end(), kind) == key.node_types.end()) continue;
    const std::string name_text = key.name();
    if (auto value = field(name_text))
      key.read_node(*value, gpus, locate, node);
    else if (key.required_in(kind))
      required(name_text);  // refuses the node
    else if (key.node_default)
      key.node_default(node);
  }
  return node;
}

void read_item(const YAML::Node& item, const ConfigValue& graph, int gpus, const GraphSource& source,
               std::vector<TaskNode>& nodes, ExperimentConfig& config) {
  const std::string at = source.at(item.Mark());
  nodes.push_back(read_node(item, nodes.size(), source, at, gpus));
  const auto [first, fresh] = config.node_locations.emplace(nodes.back().name, at);
  if (!fresh)
    throw Error(at + ": " + graph.key + ": node '" + nodes.back().name + "': the name is used by another node (" +
                first->second + ")");
}

// The nodes of one parsed list (or batch of a list), appended to `nodes`.
void read_items(const YAML::Node& list, const ConfigValue& graph, int gpus, const GraphSource& source,
                std::vector<TaskNode>& nodes, ExperimentConfig& config) {
  for (size_t i = 0; i < list.size(); ++i) read_item(list[i], graph, gpus, source, nodes, config);
}

// Where each item of a plain block list starts (byte offset, line from 0),
// or nothing when the text is not one (see read_graph_file).
std::vector<std::pair<size_t, int>> block_list_items(const std::string& text) {
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
bool only_comments(std::string_view text) {
  while (!text.empty()) {
    const size_t newline = std::min(text.find('\n'), text.size());
    const std::string_view line = trim(text.substr(0, newline));
    if (!line.empty() && line.front() != '#') return false;
    text.remove_prefix(std::min(newline + 1, text.size()));
  }
  return true;
}

// yaml-cpp's tree takes about 6 KB per node (a dozen YAML nodes of ~500
// bytes each): a 200,000-node file would hold 1.2 GB at once. A file that
// is a plain block list (every line at column 0 is a "- " item, a comment
// or blank; no anchors or aliases, one document) is therefore parsed a
// batch of items at a time, lines counted from the batch's first, so the
// tree never holds more than one batch; any other file, or a batch
// yaml-cpp refuses (then the whole file tells what is wrong, and where), is
// parsed whole.
void read_graph_file(const std::string& text, const ConfigValue& graph, int gpus, GraphSource& source,
                     std::vector<TaskNode>& nodes, ExperimentConfig& config) {
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
  if (list.size() == 0) fail_at(graph, graph.key + " has no nodes");
  read_items(list, graph, gpus, source, nodes, config);
}

}  // namespace

// A list of nodes, or a YAML file holding one (relative to the config's
// folder, also when given with --set: one rule for files and sweeps), or
// {chakra: PREFIX}.
void read_graph(ConfigReader& reader, const ConfigValue& graph, ExperimentConfig& config) {
  const int gpus = config.fabric.gpus;
  GraphSource source;
  std::vector<TaskNode> nodes;
  if (graph.value.IsScalar()) {
    const std::string named = read_name(graph);
    source.file = (std::filesystem::path(reader.source()).parent_path() / std::filesystem::path(named)).string();
    // Regular files only: a device or a pipe (/dev/zero, /dev/stdin) would
    // never end.
    // Before reading it: what its nodes will take, from its size.
    if (reader.budget() != nullptr) {
      std::error_code ignored;
      const uint64_t size = std::filesystem::file_size(source.file, ignored);
      if (!ignored) {
        reader.budget()->check(graph_file_memory_estimate(size),
                               source.file + ": workload.graph: a graph file of " + std::to_string(size) + " bytes");
      }
    }
    std::string text;
    try {
      text = read_input_file(source.file, kGraphInput);
    } catch (const Error& error) {
      fail_at(graph, graph.key + ": " + error.what() + " (a path relative to the folder of " + reader.source() + ")");
    }
    reader.add_input({"graph file (" + graph.key + ")", source.file});
    reader.names_file(graph.value, source.file);
    read_graph_file(text, graph, gpus, source, nodes, config);
  } else if (graph.value.IsSequence()) {
    source.file = reader.source();
    if (graph.where.starts_with("--set ")) source.fixed = graph.where;
    if (graph.value.size() == 0) fail_at(graph, graph.key + " has no nodes");
    read_items(graph.value, graph, gpus, source, nodes, config);
  } else if (graph.value.IsMap()) {
    read_chakra_graph(reader, graph, config);
    return;
  } else {
    fail_at(graph, graph.key +
                       " must be a list of nodes, the name of a YAML file holding one, or {chakra: PREFIX} (got " +
                       describe(graph.value) + ")");
  }
  build_graph(reader, std::move(nodes), graph, config);
}

void build_graph(ConfigReader& reader, std::vector<TaskNode> nodes, const ConfigValue& graph,
                 ExperimentConfig& config) {
  if (reader.budget() != nullptr) {
    uint64_t edges = 0;
    for (const TaskNode& node : nodes) edges += node.after.size();
    reader.budget()->check(graph_memory_estimate(nodes.size(), edges),
                           graph.where + ": " + graph.key + ": a graph of " + std::to_string(nodes.size()) +
                               " nodes and " + std::to_string(edges) + " dependencies");
  }
  try {
    config.graph = TaskGraph::build(std::move(nodes), config.fabric.gpus);
  } catch (const GraphNodeError& error) {
    // Point at the node's line (or its Chakra file and node id).
    const auto at = config.node_locations.find(error.node());
    throw Error((at == config.node_locations.end() ? graph.where : at->second) + ": " + error.what());
  } catch (const Error& error) {
    throw Error(graph.where + ": " + error.what());
  }
}

}  // namespace photonsim
