#include "sim/config/config_loader.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <sstream>
#include <string_view>

#include "core/error.h"
#include "core/input_file.h"
#include "sim/config/config_reader.h"
#include "sim/config/config_readers.h"
#include "sim/config/key_parsers.h"

namespace photonsim {
int second_yaml_document_line(const std::string& text) {
  bool started = false, ended = false;
  int number = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const auto marker = [&](const char* m) {
      return line.rfind(m, 0) == 0 && (line.size() == 3 || std::isspace(static_cast<unsigned char>(line[3])));
    };
    const std::string_view body = trim(line);
    if (body.empty() || body.front() == '#') continue;
    if (marker("---")) {
      if (started || ended) return number;
      started = true;
    } else if (marker("...")) {
      ended = true;
    } else if (line.front() == '%' && !started) {
      continue;  // a directive before the document
    } else {
      if (ended) return number;
      started = true;
    }
  }
  return 0;
}

YAML::Node parse_yaml(const std::string& yaml_text, const std::string& source_name) {
  if (const int line = second_yaml_document_line(yaml_text); line > 0) {
    throw Error(source_name + ":" + std::to_string(line) +
                ": a second YAML document ('---'); a config is exactly one document");
  }
  try {
    return YAML::Load(yaml_text);
  } catch (const YAML::ParserException& error) {
    throw Error(source_name + ":" + std::to_string(error.mark.line + 1) + ":" + std::to_string(error.mark.column + 1) +
                ": YAML syntax error: " + error.msg);
  }
}

ExperimentConfig load_config_from_string(const std::string& yaml_text, const std::string& source_name,
                                         const std::vector<std::string>& overrides, const MemoryBudget* budget) {
  YAML::Node root = parse_yaml(yaml_text, source_name);
  std::vector<Override> applied;
  for (const std::string& assignment : overrides) {
    apply_override(root, assignment);
    applied.push_back({split_assignment(assignment).first, assignment});
  }
  ConfigReader reader(source_name, std::move(applied), budget);
  ExperimentConfig config = reader.read(root);
  // What an --out folder records as the config run (provenance): the file
  // with every --set applied, before defaults, its file names absolute.
  reader.make_file_names_absolute();
  YAML::Emitter resolved;
  resolved << root;
  config.resolved_yaml = std::string(resolved.c_str()) + "\n";
  return config;
}

ExperimentConfig load_config(const std::string& path, const std::vector<std::string>& overrides,
                             const MemoryBudget* budget) {
  ExperimentConfig config = load_config_from_string(read_input_file(path, kConfigInput), path, overrides, budget);
  config.inputs.insert(config.inputs.begin(), NamedPath{"config", path});
  return config;
}

}  // namespace photonsim
