#pragma once
// Contract: the readers the schema's lines name for keys that are more than
// one value of one kind: sections with rules between their keys, named
// components, the task graph and the checks between keys. Each reads through
// the kind parsers (key_parsers.h) and fails naming the key and its place.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/config_reader.h"

namespace photonsim {

// One YAML document (a second is refused: its line named), or a syntax error at file:line:column.
YAML::Node parse_yaml(const std::string& yaml_text, const std::string& source_name);

// fabric (fabric_reader.cpp)
void read_physical(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void check_bandwidth_scope(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void read_reconfig_model(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
// fabric's failures (failure_reader.cpp)
void read_failures(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void read_random_failures(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void read_on_failure(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
// workload (workload_reader.cpp)
void read_workload(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void read_root(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void check_zipf_factor(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void apply_message_scope(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
// workload.graph (graph_reader.cpp, chakra_reader.cpp)
void read_graph(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void read_chakra_graph(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void build_graph(ConfigReader& reader, std::vector<TaskNode> nodes, const ConfigValue& graph, ExperimentConfig& config);
// synthesis (component_reader.cpp)
void read_algorithm(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void read_planner(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void read_topology(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void read_static_topology(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
void read_reconfigurations(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config);
// `bruck` or `{type: bruck, radix: 3}`: the name and the parameters as text.
std::pair<std::string, std::map<std::string, std::string>> read_component(ConfigReader& reader,
                                                                          const ConfigValue& value, const char* what);

}  // namespace photonsim
