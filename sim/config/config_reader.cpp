#include "sim/config/config_reader.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/error.h"
#include "sim/config/config_schema.h"

namespace photonsim {
namespace {

std::string parent_of(std::string_view path) {
  const auto dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string() : std::string(path.substr(0, dot));
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

ExperimentConfig ConfigReader::read(const YAML::Node& root_node) {
  const ConfigValue root{root_node, "", source_};
  if (!root_node.IsMap())
    fail_at(root, std::string("the config must be a YAML map of sections (got ") + describe(root_node) + ")");
  check_keys(root, true);
  ExperimentConfig config;
  config.source = source_;
  read_keys(root, config);
  config.key_locations = locations_;
  config.execution_columns = locations_.count("fabric.sync") > 0 || locations_.count("fabric.reconfiguration") > 0;
  config.bandwidth_scope_column = locations_.count("fabric.bandwidth_scope") > 0;
  config.inputs = inputs_;
  return config;
}

void ConfigReader::read_keys(const ConfigValue& section_value, ExperimentConfig& config,
                             const std::function<bool(const std::string&)>& take) {
  std::vector<std::pair<const ConfigKey*, ConfigValue>> given;
  for (const ConfigKey& key : ConfigSchema::builtin().keys()) {
    if (parent_of(key.path) != section_value.key) continue;
    const std::string name = key.name();
    if (take && !take(name)) continue;
    std::optional<ConfigValue> value = find(section_value, name);
    if (!value) {
      if (key.required()) require(section_value, name);
      continue;
    }
    if (key.read)
      key.read(*this, *value, config);
    else if (key.kind == "section")
      read_keys(section(*value), config);
    given.emplace_back(&key, std::move(*value));
  }
  for (const auto& [key, value] : given)
    if (key->check) key->check(*this, value, config);
}

void ConfigReader::make_file_names_absolute() const {
  for (const auto& [node, path] : file_names_) {
    YAML::Node name = node;  // a handle on the tree's scalar: assigning changes the tree
    name = std::filesystem::absolute(std::filesystem::path(path)).lexically_normal().string();
  }
}

ConfigValue ConfigReader::section(const ConfigValue& value) {
  if (!value.value.IsMap()) fail_at(value, value.key + " must be a map (got " + describe(value.value) + ")");
  check_keys(value, true);
  return value;
}

void ConfigReader::check_keys(const ConfigValue& map, bool known_only) const {
  std::set<std::string> seen;
  const std::vector<std::string> valid = ConfigSchema::builtin().children(map.key);
  for (const auto& pair : map.value) {
    const std::string name = pair.first.IsScalar() ? pair.first.Scalar() : "";
    const std::string dotted = child_key(map, name);
    const ConfigValue key{pair.first, dotted, where(dotted, pair.first.Mark())};
    const std::string scope = map.key.empty() ? "the top level" : map.key;
    if (!pair.first.IsScalar()) fail_at(key, "keys under " + scope + " must be plain names");
    if (!seen.insert(name).second) fail_at(key, "duplicate key '" + key.key + "'");
    if (!known_only || std::find(valid.begin(), valid.end(), name) != valid.end()) continue;
    const std::string listing = map.key.empty() ? "valid top-level keys" : "valid keys under " + map.key;
    std::string hint;
    if (const auto near = ConfigSchema::nearest_of(name, valid))
      hint = "; did you mean '" + child_key(map, *near) + "'?";
    fail_at(key, "unknown key '" + key.key + "' (" + listing + ": " + join(valid) + ")" + hint);
  }
}

std::optional<ConfigValue> ConfigReader::find(const ConfigValue& map, std::string_view name) {
  for (const auto& pair : map.value) {
    if (pair.first.IsScalar() && pair.first.Scalar() == name) {
      const std::string key = child_key(map, name);
      ConfigValue value{pair.second, key, where(key, pair.first.Mark())};
      locations_[key] = value.where;
      return value;
    }
  }
  return std::nullopt;
}

ConfigValue ConfigReader::require(const ConfigValue& map, std::string_view name) {
  if (auto value = find(map, name)) return *value;
  fail_at(map, "missing required key '" + child_key(map, name) + "'");
}

// Overrides win over file lines: their nodes carry marks of the --set text.
std::string ConfigReader::where(const std::string& key, const YAML::Mark& mark) const {
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

std::string ConfigReader::child_key(const ConfigValue& parent, std::string_view name) {
  return parent.key.empty() ? std::string(name) : parent.key + "." + std::string(name);
}

}  // namespace photonsim
