#include "sim/sweep/sweep_spec.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "core/error.h"
#include "core/input_file.h"
#include "core/tolerances.h"
#include "core/units.h"
#include "sim/config/config_loader.h"
#include "sim/config/config_schema.h"

namespace photonsim {

namespace {

std::string where(const std::string& source, const YAML::Node& node) {
  if (node.Mark().is_null()) return source;
  return source + ":" + std::to_string(node.Mark().line + 1);
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// One endpoint in its base unit, with the suffix that names the unit.
struct Quantity {
  double value;
  std::string unit;  // "ps", "B" or ""
};

std::optional<Quantity> quantity(const std::string& text) {
  try {
    return Quantity{static_cast<double>(parse_time(text).picoseconds()), "ps"};
  } catch (const Error&) {
  }
  try {
    return Quantity{static_cast<double>(parse_bytes(text).count()), "B"};
  } catch (const Error&) {
  }
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size()) return Quantity{v, ""};
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::vector<std::string> values_of(const YAML::Node& node, const std::string& key, const std::string& source) {
  std::vector<std::string> out;
  if (node.IsSequence()) {
    for (const YAML::Node& v : node) {
      if (!v.IsScalar() && !v.IsMap())
        throw Error(where(source, v) + ": " + key + ": each value must be a single value or a map");
      if (v.IsScalar()) {
        out.push_back(v.Scalar());
      } else {
        YAML::Emitter e;
        e.SetMapFormat(YAML::Flow);
        e << v;
        out.push_back(e.c_str());
      }
    }
  } else if (node.IsScalar()) {
    const std::string text = node.Scalar();
    if (text.find("..") != std::string::npos) {
      try {
        out = expand_range(text, key);
      } catch (const Error& e) {
        throw Error(where(source, node) + ": " + e.what());
      }
    } else {
      out.push_back(text);
    }
  } else {
    throw Error(where(source, node) + ": " + key + " must be a list, a range (A..B xN) or one value");
  }
  if (out.empty()) throw Error(where(source, node) + ": " + key + " has no values");
  return out;
}

// Keeps each row of `axis` once, in first-seen order, and notes what it dropped.
void drop_repeats(SweepSpec::Axis& axis, const std::string& label, const std::string& at,
                  std::vector<std::string>& notes) {
  std::vector<std::vector<std::string>> kept;
  std::set<std::vector<std::string>> seen;
  std::string first_repeat;
  for (std::vector<std::string>& row : axis.values) {
    if (seen.insert(row).second) {
      kept.push_back(std::move(row));
    } else if (first_repeat.empty()) {
      for (const std::string& v : row) first_repeat += (first_repeat.empty() ? "" : ", ") + v;
    }
  }
  const size_t dropped = axis.values.size() - kept.size();
  if (dropped > 0) {
    notes.push_back(at + ": " + label + " repeats " + std::to_string(dropped) +
                    " value(s) (first: " + photonsim::quoted(first_repeat) +
                    "; a log range rounds close points to one); each distinct point runs once");
  }
  axis.values = std::move(kept);
}

YAML::Node parse_single_document(const std::string& yaml_text, const std::string& source_name) {
  YAML::Node root;
  try {
    if (const int line = second_yaml_document_line(yaml_text); line > 0) {
      throw Error(source_name + ":" + std::to_string(line) +
                  ": a second YAML document ('---'); a sweep is exactly one document");
    }
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw Error(source_name + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  return root;
}

void check_top_level_keys(const YAML::Node& root, const std::string& source_name) {
  if (!root.IsMap()) throw Error(source_name + ": a sweep must be a YAML map with base, grid and optional zip");
  for (const auto& item : root) {
    const std::string key = item.first.Scalar();
    if (key != "base" && key != "grid" && key != "zip") {
      throw Error(where(source_name, item.first) + ": unknown key '" + key + "' (valid: base, grid, zip)");
    }
  }
}

// The base config, relative paths taken from the sweep file's directory.
std::string base_config_path(const YAML::Node& base, const std::string& source_name, const std::string& directory) {
  if (!base || !base.IsScalar() || base.Scalar().empty())
    throw Error(source_name + ": missing required key 'base' (a config path)");
  const std::filesystem::path base_path(base.Scalar());
  return base_path.is_absolute() ? base_path.string() : (std::filesystem::path(directory) / base_path).string();
}

// The keys swept so far, over grid and zip together: each may be swept once.
class SweptKeys {
 public:
  explicit SweptKeys(const std::string& source_name) : source_name_(source_name) {}

  // Keys are checked against the config schema here, before any point is
  // built: a misspelled key is one error at its line, not one per point.
  std::string check(const YAML::Node& k, const char* section) {
    const std::string key = k.Scalar();
    if (key.empty() || key.front() == '.' || key.back() == '.' || key.find("..") != std::string::npos) {
      throw Error(where(source_name_, k) + ": malformed key '" + key + "' (dotted config key, e.g. fabric.gpus)");
    }
    const ConfigSchema& schema = ConfigSchema::builtin();
    if (!schema.settable(key)) {
      throw Error(where(source_name_, k) + ": " + section + " key '" + key + "' is not a config key; did you mean '" +
                  schema.nearest(key) + "'? (photonsim list shows every key)");
    }
    for (const std::string& s : seen_) {
      if (s == key) throw Error(where(source_name_, k) + ": key '" + key + "' is swept twice");
    }
    seen_.push_back(key);
    return key;
  }

 private:
  const std::string& source_name_;
  std::vector<std::string> seen_;
};

// One axis per grid key.
void add_grid_axes(const YAML::Node& grid, SweptKeys& keys, SweepSpec& spec) {
  if (!grid || grid.IsNull()) return;
  const std::string& source_name = spec.source;
  if (!grid.IsMap()) throw Error(where(source_name, grid) + ": grid must be a map of dotted keys to values");
  for (const auto& item : grid) {
    const std::string key = keys.check(item.first, "grid");
    SweepSpec::Axis axis{{key}, {}};
    for (std::string& v : values_of(item.second, "grid." + key, source_name)) axis.values.push_back({std::move(v)});
    drop_repeats(axis, "grid." + key, where(source_name, item.first), spec.notes);
    spec.axes.push_back(std::move(axis));
  }
}

// One axis for all zip keys, whose value lists vary together.
void add_zip_axis(const YAML::Node& zip, SweptKeys& keys, SweepSpec& spec) {
  if (!zip || zip.IsNull()) return;
  const std::string& source_name = spec.source;
  if (!zip.IsMap()) throw Error(where(source_name, zip) + ": zip must be a map of dotted keys to lists");
  SweepSpec::Axis axis;
  size_t length = 0;
  for (const auto& item : zip) {
    const std::string key = keys.check(item.first, "zip");
    const std::vector<std::string> values = values_of(item.second, "zip." + key, source_name);
    if (axis.keys.empty()) {
      length = values.size();
      axis.values.assign(length, {});
    } else if (values.size() != length) {
      throw Error(where(source_name, item.first) + ": zip." + key + " has " + std::to_string(values.size()) +
                  " values, zip." + axis.keys.front() + " has " + std::to_string(length) + " (zip keys vary together)");
    }
    axis.keys.push_back(key);
    for (size_t i = 0; i < length; ++i) axis.values[i].push_back(values[i]);
  }
  if (!axis.keys.empty()) {
    drop_repeats(axis, "zip", where(source_name, zip), spec.notes);
    spec.axes.push_back(std::move(axis));
  }
}

// The grid is materialised as rows; refuse what could never finish or fit.
void check_point_count(const SweepSpec& spec) {
  uint64_t points = 1;
  std::string shape;
  bool overflow = false;
  for (const SweepSpec::Axis& axis : spec.axes) {
    overflow = overflow || __builtin_mul_overflow(points, static_cast<uint64_t>(axis.values.size()), &points);
    shape += (shape.empty() ? "" : " x ") + std::to_string(axis.values.size());
  }
  if (overflow || points > kMaxSweepPoints) {
    throw Error(spec.source + ": the sweep has " + (overflow ? std::string("more than 2^64") : std::to_string(points)) +
                " points (" + shape + "), more than " + std::to_string(kMaxSweepPoints) +
                "; split it into smaller sweeps");
  }
}

}  // namespace

std::vector<std::string> expand_range(const std::string& text, const std::string& key) {
  const std::string usage =
      key + ": range '" + text + "' must read A..B xN (log-spaced, N points per decade, e.g. 1us..10ms x10)";
  const auto dots = text.find("..");
  const auto x = text.rfind(" x");
  if (dots == std::string::npos || x == std::string::npos || x < dots) throw Error(usage);
  const std::optional<Quantity> low = quantity(trim(text.substr(0, dots)));
  const std::optional<Quantity> high = quantity(trim(text.substr(dots + 2, x - dots - 2)));
  int per_decade = 0;
  try {
    size_t used = 0;
    per_decade = std::stoi(trim(text.substr(x + 2)), &used);
    if (used != trim(text.substr(x + 2)).size()) per_decade = 0;
  } catch (const std::exception&) {
  }
  if (!low || !high || per_decade < 1) throw Error(usage);
  if (low->unit != high->unit) throw Error(key + ": range '" + text + "' mixes units");
  if (!(low->value > 0) || high->value < low->value) throw Error(key + ": range '" + text + "' needs 0 < A <= B");
  std::vector<std::string> out;
  const double decades = std::log10(high->value / low->value);
  const int steps = static_cast<int>(std::floor(decades * per_decade + tolerance::kFloorGuard));
  if (steps > 100000) throw Error(key + ": range '" + text + "' has more than 100000 points");
  for (int i = 0; i <= steps; ++i) {
    const double v = low->value * std::pow(10.0, static_cast<double>(i) / per_decade);
    out.push_back(std::to_string(std::llround(v)) + low->unit);
  }
  const std::string last = std::to_string(std::llround(high->value)) + low->unit;
  if (out.back() != last) out.push_back(last);  // B itself is always a point
  return out;
}

std::vector<std::string> SweepPoint::overrides() const {
  std::vector<std::string> out;
  for (const auto& [key, value] : values) out.push_back(key + "=" + value);
  return out;
}

std::vector<std::string> SweepSpec::keys() const {
  std::vector<std::string> out;
  for (const Axis& a : axes) out.insert(out.end(), a.keys.begin(), a.keys.end());
  return out;
}

std::vector<SweepPoint> SweepSpec::points() const {
  std::vector<SweepPoint> out{SweepPoint{}};
  for (const Axis& axis : axes) {
    std::vector<SweepPoint> next;
    for (const SweepPoint& p : out) {
      for (const std::vector<std::string>& row : axis.values) {
        SweepPoint q = p;
        for (size_t j = 0; j < axis.keys.size(); ++j) q.values.emplace_back(axis.keys[j], row[j]);
        next.push_back(std::move(q));
      }
    }
    out = std::move(next);
  }
  return out;
}

SweepSpec load_sweep_from_string(const std::string& yaml_text, const std::string& source_name,
                                 const std::string& directory) {
  YAML::Node root = parse_single_document(yaml_text, source_name);
  check_top_level_keys(root, source_name);
  SweepSpec spec;
  spec.source = source_name;
  spec.base = base_config_path(root["base"], source_name, directory);
  SweptKeys keys(source_name);
  add_grid_axes(root["grid"], keys, spec);
  add_zip_axis(root["zip"], keys, spec);
  if (spec.axes.empty()) throw Error(source_name + ": nothing to sweep: give grid (or zip) keys");
  check_point_count(spec);
  return spec;
}

std::string sweep_text_with_absolute_base(const std::string& yaml_text, const SweepSpec& spec) {
  const YAML::Node root = parse_single_document(yaml_text, spec.source);
  const YAML::Node base = root.IsMap() ? root["base"] : YAML::Node();
  if (!base.IsDefined() || !base.IsScalar() || std::filesystem::path(base.Scalar()).is_absolute()) return yaml_text;
  YAML::Emitter value;
  value << std::filesystem::absolute(std::filesystem::path(spec.base)).lexically_normal().string();
  // The base's scalar replaced in place, so comments and layout stay; a
  // quoted scalar with escapes (never seen in practice) makes the whole file
  // written again.
  const std::string& name = base.Scalar();
  const size_t at = static_cast<size_t>(base.Mark().pos);
  size_t length = 0;
  if (yaml_text.compare(at, name.size(), name) == 0) {
    length = name.size();
  } else if (at < yaml_text.size() && (yaml_text[at] == '\'' || yaml_text[at] == '"') &&
             yaml_text.compare(at + 1, name.size(), name) == 0 && at + 1 + name.size() < yaml_text.size() &&
             yaml_text[at + 1 + name.size()] == yaml_text[at]) {
    length = name.size() + 2;
  }
  if (length == 0) {
    YAML::Node copy = YAML::Clone(root);
    copy["base"] = std::filesystem::absolute(std::filesystem::path(spec.base)).lexically_normal().string();
    YAML::Emitter whole;
    whole << copy;
    return std::string(whole.c_str()) + "\n";
  }
  return yaml_text.substr(0, at) + value.c_str() + yaml_text.substr(at + length);
}

SweepSpec load_sweep(const std::string& path) {
  return load_sweep_from_string(read_input_file(path, kSweepInput), path,
                                std::filesystem::path(path).parent_path().string());
}

}  // namespace photonsim
