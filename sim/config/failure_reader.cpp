// fabric's failures: the list of what breaks (each entry's keys the schema's
// fabric.failures[].*, read by their kinds' parsers), the random failures and
// the policy (issue 55). Each entry is checked against the fabric (its GPUs,
// ports, bandwidth and physical layer) and against the entries before it;
// every message names the entry ("fabric.failures[2]"), the key and where
// it was written.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "sim/config/config_readers.h"
#include "sim/config/config_schema.h"
#include "sim/config/key_parsers.h"

namespace photonsim {
namespace {

std::string join_failure_keys(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// "[50us, 1.05ms)" or "[0ps, the run's end)".
std::string interval_text(const Failure& f) {
  return "[" + format_time(f.at) + ", " + (f.duration ? format_time(f.end()) : std::string("the run's end")) + ")";
}

bool takes_port_down(const Failure& f) { return f.kind == FailureKind::port || f.kind == FailureKind::flap; }
bool overlap(const Failure& a, const Failure& b) { return a.at < b.end() && b.at < a.end(); }

// What two entries both claim, when they may not stand together; "" when they may.
std::string conflict(const Failure& a, const Failure& b) {
  const std::string port = "GPU " + std::to_string(a.gpu) + "'s port " + std::to_string(a.port);
  const bool same_port = a.gpu == b.gpu && a.port == b.port;
  if (takes_port_down(a) && takes_port_down(b) && same_port && overlap(a, b))
    return "both take " + port + " down at once, over " + interval_text(b) + " and " + interval_text(a) +
           " (a port fails at most once at a time: merge them, or let one end before the other starts)";
  if (a.kind != b.kind) return "";
  switch (a.kind) {
    case FailureKind::link:
      if (same_port && overlap(a, b))
        return "both degrade " + port + " at once, over " + interval_text(b) + " and " + interval_text(a) +
               " (one rate at a time: merge them, or let one end before the other starts)";
      return "";
    case FailureKind::optical_switch:
      if (a.optical_switch == b.optical_switch)
        return "both fail optical switch " + std::to_string(a.optical_switch) + " (one entry per switch)";
      return "";
    case FailureKind::reconfiguration:
      if (a.step == b.step)
        return "both slow the reconfiguration of step " + std::to_string(a.step) + " (one entry per step)";
      return "";
    case FailureKind::mzi:
      if (a.server == b.server && a.row == b.row && a.col == b.col)
        return "both fail MZI (" + std::to_string(a.row) + ", " + std::to_string(a.col) + ") of server " +
               std::to_string(a.server) + " (one entry per MZI)";
      return "";
    case FailureKind::straggler:
      if (a.gpu == b.gpu) return "both slow GPU " + std::to_string(a.gpu) + " (one slowdown per GPU)";
      return "";
    default:
      return "";
  }
}

// One entry: a map whose `kind` is read first, then the kind's other keys in
// schema order, each through its line's parser.
Failure read_entry(ConfigReader& reader, const YAML::Node& item, const std::string& name, const std::string& list_key,
                   const std::string& at, const FabricSpec& fabric) {
  if (!item.IsMap())
    throw Error(at + ": " + name + " must be a map with a kind, such as {kind: port, gpu: 0, port: 0, at: 10us} (got " +
                describe(item) + ")");
  const ConfigSchema& schema = ConfigSchema::builtin();
  const auto field = [&](std::string_view key) -> std::optional<ConfigValue> {
    for (const auto& pair : item) {
      if (pair.first.IsScalar() && pair.first.Scalar() == key)
        return ConfigValue{pair.second, name + "." + std::string(key), reader.where(list_key, pair.first.Mark())};
    }
    return std::nullopt;
  };
  std::set<std::string> seen;
  for (const auto& pair : item) {
    const ConfigValue key{pair.first, name, reader.where(list_key, pair.first.Mark())};
    if (!pair.first.IsScalar()) fail_at(key, name + ": keys must be plain names");
    if (!seen.insert(pair.first.Scalar()).second) fail_at(key, name + ": duplicate key '" + pair.first.Scalar() + "'");
  }
  Failure failure;
  const ConfigKey* kind = schema.failure_key("kind");
  const std::optional<ConfigValue> kind_value = field("kind");
  if (!kind_value)
    throw Error(at + ": " + name + ": missing required key 'kind' (one of: " + names_of(kFailureKindNames) + ")");
  kind->read_failure(*kind_value, fabric, failure);
  const std::string kind_name = to_string(failure.kind);
  const std::vector<std::string> valid = schema.failure_key_names(kind_name);
  const std::string listing = "valid keys of a " + kind_name + " failure: " + join_failure_keys(valid);
  for (const auto& pair : item) {
    const std::string key_name = pair.first.Scalar();
    const ConfigValue key{pair.first, name, reader.where(list_key, pair.first.Mark())};
    if (schema.failure_key(key_name) == nullptr) {
      const auto near = ConfigSchema::nearest_of(key_name, valid);
      fail_at(key, name + ": unknown key '" + key_name + "' (" + listing + ")" +
                       (near ? "; did you mean '" + *near + "'?" : std::string()));
    }
    if (std::find(valid.begin(), valid.end(), key_name) == valid.end())
      fail_at(key, name + ": key '" + key_name + "' does not apply to a " + kind_name + " failure (" + listing + ")");
  }
  if (failure.kind == FailureKind::mzi && !fabric.physical)
    fail_at(*kind_value, name + ": a mzi failure needs fabric.physical (the MZI meshes its server, row and col name)");
  std::vector<std::string> required;
  for (const ConfigKey& key : schema.failure_keys())
    if (key.required_in(kind_name)) required.push_back(key.name());
  for (const ConfigKey& key : schema.failure_keys()) {
    if (&key == kind || !key.read_failure) continue;
    if (std::find(key.node_types.begin(), key.node_types.end(), kind_name) == key.node_types.end()) continue;
    if (const auto value = field(key.name()))
      key.read_failure(*value, fabric, failure);
    else if (key.required_in(kind_name))
      throw Error(at + ": " + name + ": missing required key '" + key.name() + "' (a " + kind_name + " failure needs " +
                  join_failure_keys(required) + ")");
  }
  if (failure.duration && failure.at.picoseconds() > Time::max().picoseconds() - failure.duration->picoseconds())
    fail_at(*field("for"), name + ": at + for = " + format_time(failure.at) + " + " + format_time(*failure.duration) +
                               " passes the largest time photonsim represents, 9223372036854775807 ps (about "
                               "106.75 days)");
  return failure;
}

}  // namespace

void read_failures(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config) {
  if (!value.value.IsSequence())
    fail_at(value, value.key + " must be a list of failures, each a map such as {kind: port, gpu: 0, port: 0, at: " +
                       "10us} (got " + describe(value.value) + ")");
  FailureSpec& spec = config.fabric.failures;
  std::vector<Failure> entries;
  std::vector<std::string> places;
  for (size_t i = 0; i < value.value.size(); ++i) {
    const YAML::Node item = value.value[i];
    const std::string name = value.key + "[" + std::to_string(i) + "]";
    const std::string at = reader.where(value.key, item.Mark());
    Failure failure = read_entry(reader, item, name, value.key, at, config.fabric);
    for (size_t j = 0; j < entries.size(); ++j) {
      const std::string why = conflict(entries[j], failure);
      if (!why.empty())
        throw Error(at + ": " + name + " (" + to_string(failure.kind) + ") and " + value.key + "[" + std::to_string(j) +
                    "] (" + to_string(entries[j].kind) + ", " + places[j] + ") " + why);
    }
    entries.push_back(failure);
    places.push_back(at);
  }
  spec.entries = std::move(entries);
  config.failure_locations = std::move(places);
}

void read_random_failures(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config) {
  const ConfigValue section = reader.section(value);
  config.fabric.failures.random.emplace();
  reader.read_keys(section, config);
}

// A policy's name, or {type: abort_restart, watchdog_timeout: T, restart_time: T}.
void read_on_failure(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config) {
  auto [type, params] = read_component(reader, value, "policy");
  const std::optional<FailurePolicy> policy = value_named(kFailurePolicyNames, type);
  if (!policy)
    fail_at(value, value.key + " must be one of: " + names_of(kFailurePolicyNames) + " (got " + quoted(type) + ")");
  FailureSpec& spec = config.fabric.failures;
  spec.on_failure = *policy;
  for (const auto& [name, text] : params) {
    const std::string key = ConfigReader::child_key(value, name);
    const ConfigValue param{value.value[name], key, reader.where(key, value.value[name].Mark())};
    if (*policy != FailurePolicy::abort_restart)
      fail_at(param, value.key + ": " + type + " takes no parameters (got " + quoted(name) +
                         "; abort_restart takes watchdog_timeout, restart_time and checkpoint_interval)");
    if (name == "watchdog_timeout")
      spec.watchdog_timeout = read_long_time(param);
    else if (name == "restart_time")
      spec.restart_time = read_long_time(param);
    else if (name == "checkpoint_interval")
      spec.checkpoint_interval = read_positive_long_time(param);
    else
      fail_at(param, value.key + ": abort_restart has no parameter " + quoted(name) +
                         " (valid: watchdog_timeout, restart_time, checkpoint_interval)");
  }
  if (*policy == FailurePolicy::abort_restart && !spec.restart_time)
    fail_at(value, value.key + ": abort_restart needs restart_time, how long the job takes to restart from its last " +
                       "checkpoint (no published figure is taken as a default), e.g. {type: abort_restart, " +
                       "restart_time: 5min}");
}

}  // namespace photonsim
