#pragma once
// Contract: every key an experiment config accepts, described once - its
// dotted path, kind, unit, default, allowed values and one line of doc. The
// loader takes its key lists from here (so an unknown key is refused with the
// valid ones and the nearest), sweeps check their grid keys against it before
// any point runs, `photonsim list` prints it and docs/config.md's reference
// table is generated from it (tests/config/config_schema_test.cpp fails when the
// page is stale). Immutable; built once from the specs' own defaults and enum
// tables, so a default changed in a spec changes here too.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace photonsim {

struct ConfigKey {
  std::string path;           // dotted, e.g. "fabric.gpus"
  std::string kind;           // section, integer, size, time, bandwidth, choice, boolean, real, text, ...
  std::string unit;           // what the number counts; "" when it has no unit
  std::string default_value;  // "required", "none", or the value used when the key is absent
  std::string allowed;        // the values or the range accepted
  std::string doc;            // one line
  bool open = false;          // takes parameters below it that the schema does not list (named components)
};

class ConfigSchema {
 public:
  // The schema of photonsim's configs.
  static const ConfigSchema& builtin();

  const std::vector<ConfigKey>& keys() const { return keys_; }
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
  // `photonsim list`'s text: one line per key.
  std::string text() const;

 private:
  explicit ConfigSchema(std::vector<ConfigKey> keys) : keys_(std::move(keys)) {}
  std::vector<ConfigKey> keys_;
};

// The edit distance (insertions, deletions, substitutions) between two names.
size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace photonsim
