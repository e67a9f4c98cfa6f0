// synthesis: named components (a name, or {type: NAME, PARAM: VALUE, ...}),
// their files, and the count of reconfigurations.
#include <climits>
#include <filesystem>

#include "sim/config/config_readers.h"
#include "sim/config/key_parsers.h"

namespace photonsim {
namespace {

std::string flow_text(const ConfigValue& value) {
  YAML::Emitter out;
  out.SetSeqFormat(YAML::Flow);
  out.SetMapFormat(YAML::Flow);
  out << value.value;
  return out.c_str();
}

// `ring` or `{type: ring, param: value, ...}`; parameters stay strings for the generator.
TopologySpec topology_spec(ConfigReader& reader, const ConfigValue& value) {
  auto [type, params] = read_component(reader, value, "topology");
  if (const auto file = params.find("file"); file != params.end() && !file->second.empty()) {
    reader.add_input({"edge file (" + value.key + ")", file->second});
    if (value.value.IsMap()) reader.names_file(value.value["file"], file->second);
  }
  return TopologySpec{std::move(type), std::move(params)};
}

}  // namespace

std::pair<std::string, std::map<std::string, std::string>> read_component(ConfigReader& reader,
                                                                          const ConfigValue& value, const char* what) {
  std::pair<std::string, std::map<std::string, std::string>> spec;
  if (value.value.IsScalar()) {
    spec.first = read_name(value);
    return spec;
  }
  if (!value.value.IsMap())
    fail_at(value, value.key + " must be " + (std::string(what) == "algorithm" ? "an " : "a ") + what +
                       " name or a map with a 'type' key (got " + describe(value.value) + ")");
  reader.check_keys(value, false);
  spec.first = read_name(reader.require(value, "type"));
  for (const auto& pair : value.value) {
    const std::string name = pair.first.Scalar();
    if (name == "type") continue;
    const std::string key = ConfigReader::child_key(value, name);
    const ConfigValue param{pair.second, key, reader.where(key, pair.first.Mark())};
    // Lists (generator sets, dimensions, edge lists) travel as YAML flow text;
    // the generator parses and validates them.
    spec.second[name] = param.value.IsSequence() ? flow_text(param) : read_text(param);
  }
  return spec;
}

// `bruck` or `{type: bruck, radix: 3}`; parameters stay strings for the algorithm.
// An algorithm read from a file (msccl) names it relative to the config's folder.
// `file` may be a list (msccl: several algorithms, chosen by size): each
// resolved, then one path a line.
void read_algorithm(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config) {
  auto spec = read_component(reader, value, "algorithm");
  const auto file = spec.second.find("file");
  if (file != spec.second.end() && !file->second.empty()) {
    std::vector<std::string> paths{file->second};
    const YAML::Node listed = value.value.IsMap() ? value.value["file"] : YAML::Node();
    if (listed.IsDefined() && listed.IsSequence()) {
      const std::string key = ConfigReader::child_key(value, "file");
      paths.clear();
      for (const auto& item : listed) {
        const std::string path = read_name(ConfigValue{item, key, value.where});
        if (path.find('\n') != std::string::npos) fail_at(value, key + ": a file name holds a line break");
        paths.push_back(path);
      }
      if (paths.empty()) fail_at(value, key + " lists no file");
    }
    std::string joined;
    const bool is_list = listed.IsDefined() && listed.IsSequence();
    for (size_t i = 0; i < paths.size(); ++i) {
      std::string& path = paths[i];
      if (!std::filesystem::path(path).is_absolute())
        path = (std::filesystem::path(reader.source()).parent_path() / std::filesystem::path(path)).string();
      reader.add_input({"algorithm file (" + value.key + ")", path});
      if (value.value.IsMap()) reader.names_file(is_list ? listed[i] : value.value["file"], path);
      joined += (joined.empty() ? "" : "\n") + path;
    }
    file->second = joined;
  }
  std::tie(config.synthesis.algorithm, config.synthesis.algorithm_params) = std::move(spec);
}

void read_planner(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config) {
  std::tie(config.synthesis.planner, config.synthesis.planner_params) = read_component(reader, value, "planner");
}

void read_topology(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config) {
  config.synthesis.topology = topology_spec(reader, value);
}

void read_static_topology(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config) {
  config.synthesis.static_topology = topology_spec(reader, value);
}

// auto, or an integer >= 1.
void read_reconfigurations(ConfigReader&, const ConfigValue& value, ExperimentConfig& config) {
  const std::string text = read_text(value);
  if (text == "auto") return;
  if (text.find_first_not_of("0123456789") != std::string::npos)
    fail_at(value, value.key + " must be auto or an integer >= 1 (got '" + text + "')");
  config.synthesis.reconfigurations = read_integer<int>(value, 1, INT_MAX);
}

}  // namespace photonsim
