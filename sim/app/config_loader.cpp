#include "sim/app/config_loader.h"

#include <yaml-cpp/yaml.h>

#include <climits>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <cctype>
#include <initializer_list>
#include <limits>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/error.h"

namespace photonsim {
namespace {

// Every key a section accepts; anything else is reported with this list.
using KeyList = std::span<const std::string_view>;

constexpr std::string_view kTopLevelKeys[]{"seed", "fabric", "workload", "synthesis", "output"};
constexpr std::string_view kFabricKeys[]{"gpus",         "ports",  "circuits",       "bandwidth",      "latency",
                                         "router",       "packet", "header",         "reconfig_delay", "step_overhead",
                                         "egress_order", "sync",   "reconfiguration"};
constexpr std::string_view kWorkloadKeys[]{"collective",   "message",     "chunk",        "root",
                                           "distribution", "zipf_factor", "message_scope"};
constexpr std::string_view kSynthesisKeys[]{"algorithm", "planner", "topology", "static_topology", "reconfigurations"};
constexpr std::string_view kOutputKeys[]{"dir"};

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

// One key of the config, with the place it came from so messages can point at it.
struct Entry {
  YAML::Node value;
  std::string key;    // dotted path; empty for the root
  std::string where;  // "file:line", "file" or "--set key=value"
};

// Validates a parsed tree section by section. Holds only what messages need.
class Reader {
 public:
  Reader(std::string source, std::vector<Override> overrides)
      : source_(std::move(source)), overrides_(std::move(overrides)) {}

  ExperimentConfig read(const YAML::Node& root_node) const {
    const Entry root{root_node, "", source_};
    if (!root_node.IsMap())
      fail(root, std::string("the config must be a YAML map of sections (got ") + describe(root_node) + ")");
    check_keys(root, kTopLevelKeys);

    ExperimentConfig config;
    config.source = source_;
    if (auto seed = find(root, "seed")) config.seed = integer<uint64_t>(*seed, 0, std::numeric_limits<uint64_t>::max());

    read_fabric(section(require(root, "fabric"), kFabricKeys), config.fabric);
    read_workload(section(require(root, "workload"), kWorkloadKeys), config.fabric.gpus, config.workload);
    read_synthesis(section(require(root, "synthesis"), kSynthesisKeys), config.synthesis);
    if (auto output = find(root, "output")) {
      const Entry out = section(*output, kOutputKeys);
      if (auto dir = find(out, "dir")) config.output_dir = text(*dir);
    }
    config.key_locations = locations_;
    return config;
  }

 private:
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
    if (auto overhead = find(fabric, "step_overhead")) f.step_overhead = time(*overhead);
    if (auto sync = find(fabric, "sync")) f.sync = choice(*sync, kSyncModeNames);
    if (auto scope = find(fabric, "reconfiguration")) f.reconfiguration = choice(*scope, kReconfigurationScopeNames);
  }

  void read_workload(const Entry& workload, int gpus, WorkloadSpec& w) const {
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

  // Rejects non-scalar, duplicate and (when `valid` is given) unknown keys.
  void check_keys(const Entry& map, std::optional<KeyList> valid) const {
    std::set<std::string> seen;
    for (const auto& pair : map.value) {
      const std::string name = pair.first.IsScalar() ? pair.first.Scalar() : "";
      const std::string dotted = child_key(map, name);
      const Entry key{pair.first, dotted, where(dotted, pair.first.Mark())};
      const std::string scope = map.key.empty() ? "the top level" : map.key;
      if (!pair.first.IsScalar()) fail(key, "keys under " + scope + " must be plain names");
      if (!seen.insert(name).second) fail(key, "duplicate key '" + key.key + "'");
      if (!valid) continue;
      bool known = false;
      for (std::string_view candidate : *valid) known = known || candidate == name;
      if (!known) {
        const std::string listing = map.key.empty() ? "valid top-level keys" : "valid keys under " + map.key;
        fail(key, "unknown key '" + key.key + "' (" + listing + ": " + join(*valid) + ")");
      }
    }
  }

  Entry section(const Entry& entry, KeyList valid) const {
    if (!entry.value.IsMap()) fail(entry, entry.key + " must be a map (got " + describe(entry.value) + ")");
    check_keys(entry, valid);
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
    return TopologySpec{std::move(type), std::move(params)};
  }

  // `bruck` or `{type: bruck, radix: 3}`; parameters stay strings for the algorithm.
  std::pair<std::string, std::map<std::string, std::string>> algorithm_spec(const Entry& entry) const {
    return named_component(entry, "algorithm");
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
    check_keys(entry, std::nullopt);
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
  mutable std::map<std::string, std::string> locations_;  // every key found, for ExperimentConfig::key_locations
};

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
                                         const std::vector<std::string>& overrides) {
  YAML::Node root = parse_yaml(yaml_text, source_name);
  std::vector<Override> applied;
  for (const std::string& assignment : overrides) {
    apply_override(root, assignment);
    applied.push_back({split_assignment(assignment).first, assignment});
  }
  return Reader(source_name, std::move(applied)).read(root);
}

ExperimentConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  if (std::filesystem::is_directory(path)) throw Error("config '" + path + "' is a directory, not a YAML file");
  std::ifstream file(path);
  if (!file) throw Error("cannot open config '" + path + "'");
  std::stringstream text;
  text << file.rdbuf();
  return load_config_from_string(text.str(), path, overrides);
}

}  // namespace photonsim
