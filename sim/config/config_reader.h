#pragma once
// Contract: reads a parsed config tree into an ExperimentConfig, asking the
// schema (config_schema.h) for every key: a section's keys are read in schema
// order, each through the `read` of its line (the kind parser bound to its spec
// field, or a reader of config_readers.h), then their `check`s. It knows where
// every key was written (file:line, or the --set that gave it) and keeps the
// locations and the input files the config names.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/config/config_overrides.h"
#include "sim/config/config_value.h"
#include "sim/config/experiment_config.h"

namespace photonsim {

class MemoryBudget;

class ConfigReader {
 public:
  ConfigReader(std::string source, std::vector<Override> overrides, const MemoryBudget* budget)
      : source_(std::move(source)), overrides_(std::move(overrides)), budget_(budget) {}

  ExperimentConfig read(const YAML::Node& root);

  // Reads the keys the schema lists under `section` that `take` accepts (all
  // when none): each given one through its line's `read` (a section without
  // one: its keys, recursively), a missing required one refused; then the
  // `check` of each given one.
  void read_keys(const ConfigValue& section, ExperimentConfig& config,
                 const std::function<bool(const std::string&)>& take = {});

  // `value` as a map of the keys the schema lists under its key.
  ConfigValue section(const ConfigValue& value);
  // Rejects non-scalar, duplicate and (when `known_only`) keys the schema
  // does not list under this section, naming the valid ones and the nearest.
  void check_keys(const ConfigValue& map, bool known_only) const;
  std::optional<ConfigValue> find(const ConfigValue& map, std::string_view name);
  ConfigValue require(const ConfigValue& map, std::string_view name);
  // Where `key` was written: the --set that gave it, or the file's line of `mark`.
  std::string where(const std::string& key, const YAML::Mark& mark) const;
  static std::string child_key(const ConfigValue& parent, std::string_view name);

  const std::string& source() const { return source_; }
  // When given: graphs are estimated against it before they are read and built.
  const MemoryBudget* budget() const { return budget_; }
  void add_input(NamedPath input) { inputs_.push_back(std::move(input)); }
  // `node` names the file at `path` (resolved), for make_file_names_absolute.
  void names_file(const YAML::Node& node, const std::string& path) {
    if (node.IsDefined() && node.IsScalar()) file_names_.emplace_back(node, path);
  }
  // Rewrites every file name read() resolved, in the tree it read, to its
  // absolute path: the config as saved (provenance's config.yaml) then runs
  // from any folder, its own above all.
  void make_file_names_absolute() const;

 private:
  std::string source_;
  std::vector<Override> overrides_;
  const MemoryBudget* budget_;
  std::map<std::string, std::string> locations_;  // every key found, for ExperimentConfig::key_locations
  std::vector<NamedPath> inputs_;                 // files the config names, for ExperimentConfig::inputs
  // The scalars that name those files, with the path each resolves to.
  std::vector<std::pair<YAML::Node, std::string>> file_names_;
};

}  // namespace photonsim
