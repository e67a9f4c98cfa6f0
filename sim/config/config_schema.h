#pragma once
// Contract: every key an experiment config accepts, described once - its
// dotted path, kind, unit, default, allowed values and one line of doc - and
// how it is read: each key's line binds it to its spec field through the
// parser of its kind (sim/config/key_parsers.h), its range and default stated
// there once (config_schema_keys.cpp). The loader asks the schema for every
// key (so an unknown key is refused with the valid ones and the nearest, and a
// new key of an existing kind is its spec field and one line), sweeps check their grid keys against it before
// any point runs, `photonsim list` prints it and docs/config.md's reference
// table is generated from it (tests/config/config_schema_test.cpp fails when the
// page is stale). Immutable; built once from the specs' own defaults and enum
// tables, so a default changed in a spec changes here too.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace YAML {
struct Mark;
}

namespace photonsim {

class ConfigReader;
struct ConfigValue;
struct ExperimentConfig;
struct TaskNode;
struct ChakraImport;
struct Failure;
struct FabricSpec;

// Reads one key's value into the experiment (the reader gives sections and
// components their keys' places, files and inputs).
using KeyRead = std::function<void(ConfigReader&, const ConfigValue&, ExperimentConfig&)>;
// Where a YAML node of a graph stands ("file:line"), from its mark.
using Locate = std::function<std::string(const YAML::Mark&)>;
// Reads a workload.graph node's key into the node: GPU ids must be below
// `gpus` (fabric.gpus), a list's items are placed by `locate`.
using NodeRead = std::function<void(const ConfigValue&, int gpus, const Locate& locate, TaskNode&)>;
// Reads a key of workload.graph: {chakra: PREFIX, ...} into the import.
using ChakraRead = std::function<void(const ConfigValue&, ChakraImport&)>;
// Reads a key of a fabric.failures entry into the failure, checked against
// the fabric read before it (its GPUs, ports, bandwidth, physical layer).
using FailureRead = std::function<void(const ConfigValue&, const FabricSpec&, Failure&)>;

struct ConfigKey {
  ConfigKey(std::string path_, std::string kind_, std::string unit_, std::string default_value_, std::string allowed_,
            std::string doc_, bool open_ = false)
      : path(std::move(path_)),
        kind(std::move(kind_)),
        unit(std::move(unit_)),
        default_value(std::move(default_value_)),
        allowed(std::move(allowed_)),
        doc(std::move(doc_)),
        open(open_) {}

  std::string path;           // dotted, e.g. "fabric.gpus"
  std::string kind;           // section, integer, size, time, bandwidth, choice, boolean, real, text, ...
  std::string unit;           // what the number counts; "" when it has no unit
  std::string default_value;  // "required", "none", or the value used when the key is absent
  std::string allowed;        // the values or the range accepted
  std::string doc;            // one line
  bool open = false;          // takes parameters below it that the schema does not list (named components)
  KeyRead read;               // parses the value into its spec field; none: its section's reader reads it
  KeyRead check;              // after every key of its section is read: a check against the others
  // A key of a workload.graph node ("workload.graph[].gpus"): the node types
  // that take it, and those that require it; read_node parses it into the
  // node, and node_default, when a node whose type takes it leaves it out,
  // gives the node its default. The graph reader reads `name` itself: it
  // names the node in every message, the others' included.
  std::vector<std::string> node_types;
  std::vector<std::string> required_for;
  NodeRead read_node;
  std::function<void(TaskNode&)> node_default;
  // A key of workload.graph: {chakra: PREFIX, ...}: parses it into the import.
  ChakraRead read_chakra;
  // A key of a fabric.failures entry ("fabric.failures[].gpu"): node_types
  // and required_for above name the failure kinds that take and require it;
  // read_failure parses it into the entry.
  FailureRead read_failure;
  // The heading under which `photonsim list` lists the names this key takes
  // ("algorithms"), from their registry; "" when it takes none by name.
  std::string catalog;

  // "required", or "required (without graph)": the loader refuses a config without it.
  bool required() const { return default_value.starts_with("required"); }
  // A node key: whether a node of `node_type` must give it.
  bool required_in(std::string_view node_type) const;
  // The last name of the path: "gpus" for fabric.gpus and workload.graph[].gpus.
  std::string name() const;
};

class ConfigSchema {
 public:
  // The schema of photonsim's configs.
  static const ConfigSchema& builtin();

  // The keys of a config's sections (what --set and sweeps may set).
  const std::vector<ConfigKey>& keys() const { return keys_; }
  // The keys inside workload.graph: {chakra: PREFIX, ...} (workload.graph.chakra,
  // ...) and a node's (workload.graph[].name, ...).
  const std::vector<ConfigKey>& graph_keys() const { return graph_keys_; }
  // The names a node of `type` takes, in schema order; with "" every node key.
  std::vector<std::string> node_keys(std::string_view type) const;
  const ConfigKey* node_key(std::string_view name) const;
  // The names {chakra: PREFIX} takes.
  std::vector<std::string> chakra_keys() const;
  const ConfigKey* chakra_key(std::string_view name) const;
  // The keys of a fabric.failures entry (fabric.failures[].kind, ...).
  const std::vector<ConfigKey>& failure_keys() const { return failure_keys_; }
  // The names an entry of `kind` takes, in schema order; with "" every one.
  std::vector<std::string> failure_key_names(std::string_view kind) const;
  const ConfigKey* failure_key(std::string_view name) const;
  // `photonsim list`'s heading of a catalog, naming the keys that take its
  // names: "topologies (synthesis.topology, synthesis.static_topology):".
  std::string catalog_heading(std::string_view catalog) const;
  const ConfigKey* find(std::string_view path) const;
  // The names directly under `section` ("" = the top level), in schema order.
  std::vector<std::string> children(std::string_view section) const;
  // Whether `path` may be set (--set, a sweep's grid): a key of the schema, or
  // a parameter under an open key (synthesis.algorithm.d).
  bool settable(std::string_view path) const;
  // The key of the schema nearest to `path` by edit distance (the whole path
  // and its last name both weigh in), for "did you mean" in errors.
  std::string nearest(std::string_view path) const;
  // The nearest of `candidates` to `name`, or nothing when none is close
  // (more than half of the name would change).
  static std::optional<std::string> nearest_of(std::string_view name, const std::vector<std::string>& candidates);
  // docs/config.md's reference table (Markdown), from the keys.
  std::string markdown() const;
  // `photonsim list`'s text: per key a line, then what it accepts (every
  // enum's names, every range).
  std::string text() const;

 private:
  // keys(), graph_keys() listed right after workload.graph, failure_keys()
  // right after fabric.failures.
  std::vector<const ConfigKey*> listed() const;
  ConfigSchema(std::vector<ConfigKey> keys, std::vector<ConfigKey> graph_keys, std::vector<ConfigKey> failure_keys)
      : keys_(std::move(keys)), graph_keys_(std::move(graph_keys)), failure_keys_(std::move(failure_keys)) {}
  std::vector<ConfigKey> keys_;
  std::vector<ConfigKey> graph_keys_;
  std::vector<ConfigKey> failure_keys_;
};

// The keys of photonsim's configs, those inside workload.graph and those of
// a fabric.failures entry (config_schema_keys.cpp).
std::vector<ConfigKey> builtin_config_keys();
std::vector<ConfigKey> builtin_graph_keys();
std::vector<ConfigKey> builtin_failure_keys();

// The edit distance (insertions, deletions, substitutions) between two names.
size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace photonsim
