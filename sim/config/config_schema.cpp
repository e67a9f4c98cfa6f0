#include "sim/config/config_schema.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace photonsim {
namespace {

std::string last_name(std::string_view path) {
  const auto dot = path.rfind('.');
  return std::string(dot == std::string_view::npos ? path : path.substr(dot + 1));
}

std::string schema_parent_of(std::string_view path) {
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
  static const ConfigSchema schema(builtin_config_keys(), builtin_graph_keys(), builtin_failure_keys());
  return schema;
}

std::string ConfigKey::name() const { return last_name(path); }

std::vector<std::string> ConfigSchema::node_keys(std::string_view type) const {
  std::vector<std::string> out;
  for (const ConfigKey& key : graph_keys_) {
    if (key.node_types.empty()) continue;
    if (type.empty() || std::find(key.node_types.begin(), key.node_types.end(), type) != key.node_types.end())
      out.push_back(key.name());
  }
  return out;
}

const ConfigKey* ConfigSchema::node_key(std::string_view name) const {
  for (const ConfigKey& key : graph_keys_)
    if (!key.node_types.empty() && key.name() == name) return &key;
  return nullptr;
}

std::vector<std::string> ConfigSchema::chakra_keys() const {
  std::vector<std::string> out;
  for (const ConfigKey& key : graph_keys_)
    if (key.node_types.empty()) out.push_back(key.name());
  return out;
}

const ConfigKey* ConfigSchema::chakra_key(std::string_view name) const {
  for (const ConfigKey& key : graph_keys_)
    if (key.node_types.empty() && key.name() == name) return &key;
  return nullptr;
}

std::vector<std::string> ConfigSchema::failure_key_names(std::string_view kind) const {
  std::vector<std::string> out;
  for (const ConfigKey& key : failure_keys_) {
    if (kind.empty() || std::find(key.node_types.begin(), key.node_types.end(), kind) != key.node_types.end())
      out.push_back(key.name());
  }
  return out;
}

const ConfigKey* ConfigSchema::failure_key(std::string_view name) const {
  for (const ConfigKey& key : failure_keys_)
    if (key.name() == name) return &key;
  return nullptr;
}

bool ConfigKey::required_in(std::string_view node_type) const {
  return std::find(required_for.begin(), required_for.end(), node_type) != required_for.end();
}

std::string ConfigSchema::catalog_heading(std::string_view catalog) const {
  std::string paths;
  for (const ConfigKey& key : keys_)
    if (key.catalog == catalog) paths += (paths.empty() ? "" : ", ") + key.path;
  return std::string(catalog) + " (" + paths + "):";
}

const ConfigKey* ConfigSchema::find(std::string_view path) const {
  for (const ConfigKey& key : keys_)
    if (key.path == path) return &key;
  return nullptr;
}

std::vector<std::string> ConfigSchema::children(std::string_view section) const {
  std::vector<std::string> out;
  for (const ConfigKey& key : keys_)
    if (schema_parent_of(key.path) == section) out.push_back(last_name(key.path));
  return out;
}

bool ConfigSchema::settable(std::string_view path) const {
  if (find(path) != nullptr) return true;
  for (std::string parent = schema_parent_of(path); !parent.empty(); parent = schema_parent_of(parent)) {
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

// Every key, those inside workload.graph and a fabric.failures entry right after it.
std::vector<const ConfigKey*> ConfigSchema::listed() const {
  std::vector<const ConfigKey*> out;
  for (const ConfigKey& key : keys_) {
    out.push_back(&key);
    if (key.path == "workload.graph")
      for (const ConfigKey& inner : graph_keys_) out.push_back(&inner);
    if (key.path == "fabric.failures")
      for (const ConfigKey& inner : failure_keys_) out.push_back(&inner);
  }
  return out;
}

std::string ConfigSchema::markdown() const {
  std::string out = "| key | kind | unit | default | allowed | what it is |\n|---|---|---|---|---|---|\n";
  for (const ConfigKey* key : listed()) {
    out += "| `" + key->path + "` | " + key->kind + " | " + cell(key->unit) + " | " + cell(key->default_value) + " | " +
           cell(key->allowed) + " | " + cell(key->doc) + " |\n";
  }
  return out;
}

std::string ConfigSchema::text() const {
  std::string out;
  for (const ConfigKey* key : listed()) {
    if (key->kind == "section") continue;
    out += "  " + key->path + " (" + key->kind + (key->unit.empty() ? "" : ", " + key->unit) +
           "; default: " + key->default_value + "): " + key->doc + "\n      accepts: " + key->allowed + "\n";
  }
  return out;
}

}  // namespace photonsim
