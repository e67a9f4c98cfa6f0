#pragma once
// Contract: one builder per kind of key inside workload.graph, as
// config_key_builders.h has for the config's own keys: a schema line
// (builtin_graph_keys, config_schema_keys.cpp) names the key, the field it
// fills - of a node (TaskNode) or of {chakra: ...} (ChakraImport) - and, for
// bounded kinds, the range, once; the builder makes the ConfigKey whose
// `allowed` text comes from the same range or names the parser checks and
// whose read_node or read_chakra parses the value with the kind's parser
// (key_parsers.h) into the field. A node's key also names the node types that
// take it, those that require it and its default where it is optional.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/spec/task_graph.h"
#include "sim/config/chakra_import.h"
#include "sim/config/config_schema.h"
#include "sim/config/key_parsers.h"

namespace photonsim {

// A key of a workload.graph node ("workload.graph[].NAME"): its default is
// "required" where every type taking it requires it, else the types requiring
// it and `optional_default`; its doc ends with the types taking it. It reads
// nothing until a builder below gives it read_node.
inline ConfigKey node_key(const std::string& name, std::string kind, std::string unit, std::vector<std::string> types,
                          std::vector<std::string> required_for, std::string optional_default, std::string allowed,
                          std::string doc) {
  std::string default_value;
  if (required_for == types) {
    default_value = "required";
  } else {
    for (const std::string& type : required_for) default_value += (default_value.empty() ? "" : ", ") + type;
    if (!default_value.empty()) default_value = "required (" + default_value + "); ";
    default_value += optional_default;
  }
  std::string nodes;
  for (const std::string& type : types) nodes += (nodes.empty() ? "" : ", ") + type;
  ConfigKey key{"workload.graph[]." + name,
                std::move(kind),
                std::move(unit),
                default_value,
                std::move(allowed),
                std::move(doc) + " (" + nodes + " nodes)"};
  key.node_types = std::move(types);
  key.required_for = std::move(required_for);
  return key;
}

// A node field's parse: `parse(value)` stored into `field` of the node.
template <class T, class Parse>
NodeRead store_in_node(T TaskNode::*field, Parse parse) {
  return [field, parse](const ConfigValue& value, int, const Locate&, TaskNode& node) { node.*field = parse(value); };
}

// A bounded integer: min .. max (max = the type's largest: no upper bound).
template <class T>
ConfigKey node_integer_key(const std::string& name, T TaskNode::*field, T min, T max, std::string unit,
                           std::vector<std::string> types, std::vector<std::string> required_for,
                           std::string optional_default, std::string doc) {
  ConfigKey key = node_key(name, "integer", std::move(unit), std::move(types), std::move(required_for),
                           std::move(optional_default), integer_range_text(min, max), std::move(doc));
  key.read_node =
      store_in_node(field, [min, max](const ConfigValue& value) { return read_integer<T>(value, min, max); });
  return key;
}

// One of an enum's names (core/enum_names.h tables).
template <class Enum, size_t N>
ConfigKey node_choice_key(const std::string& name, Enum TaskNode::*field, const EnumName<Enum> (&names)[N],
                          std::vector<std::string> types, std::vector<std::string> required_for,
                          std::string optional_default, std::string doc) {
  ConfigKey key = node_key(name, "choice", "", std::move(types), std::move(required_for), std::move(optional_default),
                           choice_range_text(names), std::move(doc));
  key.read_node = store_in_node(field, [&names](const ConfigValue& value) { return read_choice(value, names); });
  return key;
}

// A time >= 0.
inline ConfigKey node_time_key(const std::string& name, Time TaskNode::*field, std::vector<std::string> types,
                               std::vector<std::string> required_for, std::string optional_default, std::string doc) {
  ConfigKey key = node_key(name, "time", "ps", std::move(types), std::move(required_for), std::move(optional_default),
                           std::string(">= 0, ") + kTimeValues, std::move(doc));
  key.read_node = store_in_node(field, [](const ConfigValue& value) { return read_time(value); });
  return key;
}

// A size > 0.
inline ConfigKey node_size_key(const std::string& name, Bytes TaskNode::*field, std::vector<std::string> types,
                               std::vector<std::string> required_for, std::string optional_default, std::string doc) {
  ConfigKey key = node_key(name, "size", "bytes", std::move(types), std::move(required_for),
                           std::move(optional_default), std::string("> 0, ") + kSizeValues, std::move(doc));
  key.read_node = store_in_node(field, [](const ConfigValue& value) { return read_size(value, nullptr); });
  return key;
}

// A name (not blank): of a component (`kind` "component") or any text.
inline ConfigKey node_name_key(const std::string& name, std::string kind, std::string TaskNode::*field,
                               std::vector<std::string> types, std::vector<std::string> required_for,
                               std::string optional_default, std::string allowed, std::string doc) {
  ConfigKey key = node_key(name, std::move(kind), "", std::move(types), std::move(required_for),
                           std::move(optional_default), std::move(allowed), std::move(doc));
  key.read_node = store_in_node(field, [](const ConfigValue& value) { return read_name(value); });
  return key;
}

// Node names: one, or a list of them.
inline ConfigKey node_names_key(const std::string& name, std::vector<std::string> TaskNode::*field,
                                std::vector<std::string> types, std::vector<std::string> required_for,
                                std::string optional_default, std::string doc) {
  ConfigKey key = node_key(name, "list", "", std::move(types), std::move(required_for), std::move(optional_default),
                           "a node name or a list of them", std::move(doc));
  key.read_node = store_in_node(field, [](const ConfigValue& value) { return read_names(value); });
  return key;
}

// GPU ids and ranges, each below fabric.gpus.
inline ConfigKey node_gpus_key(const std::string& name, std::vector<int> TaskNode::*field,
                               std::vector<std::string> types, std::vector<std::string> required_for,
                               std::string optional_default, std::string doc) {
  ConfigKey key = node_key(name, "list", "GPUs", std::move(types), std::move(required_for), std::move(optional_default),
                           kGpuListValues, std::move(doc));
  key.read_node = [field](const ConfigValue& value, int gpus, const Locate& locate, TaskNode& node) {
    node.*field = read_gpu_list(value, gpus, locate);
  };
  return key;
}

// A key of {chakra: PREFIX, ...} ("workload.graph.NAME"), read into the import.
inline ConfigKey chakra_key(const std::string& name, std::string kind, std::string unit, std::string default_value,
                            std::string allowed, std::string doc, ChakraRead read) {
  ConfigKey key{"workload.graph." + name, std::move(kind),    std::move(unit),
                std::move(default_value), std::move(allowed), std::move(doc)};
  key.read_chakra = std::move(read);
  return key;
}

// A name (not blank).
inline ConfigKey chakra_name_key(const std::string& name, std::string ChakraImport::*field, std::string default_value,
                                 std::string allowed, std::string doc) {
  return chakra_key(name, "text", "", std::move(default_value), std::move(allowed), std::move(doc),
                    [field](const ConfigValue& value, ChakraImport& import) { import.*field = read_name(value); });
}

// A bounded integer, none by default.
template <class T>
ConfigKey chakra_integer_key(const std::string& name, std::optional<T> ChakraImport::*field, T min, T max,
                             std::string unit, std::string doc) {
  return chakra_key(name, "integer", std::move(unit), "none", integer_range_text(min, max), std::move(doc),
                    [field, min, max](const ConfigValue& value, ChakraImport& import) {
                      import.*field = read_integer<T>(value, min, max);
                    });
}

// {NAME: VALUE, ...}: each NAME one of an enum's names, each VALUE a name;
// `keys` and `values` say what they are ("a collective", "an algorithm").
template <class Enum, size_t N>
ConfigKey chakra_choice_map_key(const std::string& name, std::map<Enum, std::string> ChakraImport::*field,
                                const EnumName<Enum> (&names)[N], const char* keys, const char* values,
                                std::string default_value, std::string allowed, std::string doc) {
  return chakra_key(name, "map", "", std::move(default_value), std::move(allowed), std::move(doc),
                    [field, &names, keys, values](const ConfigValue& value, ChakraImport& import) {
                      import.*field = read_choice_map(value, names, keys, values);
                    });
}

}  // namespace photonsim
