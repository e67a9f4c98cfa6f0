#include "sim/config/config_overrides.h"

#include <yaml-cpp/yaml.h>

#include <string_view>

#include "core/error.h"
#include "sim/config/config_loader.h"
#include "sim/config/key_parsers.h"

namespace photonsim {

std::string shown_assignment(const std::string& assignment) {
  return assignment.size() <= 80
             ? assignment
             : assignment.substr(0, 77) + "... (" + std::to_string(assignment.size()) + " characters)";
}

std::pair<std::string, std::string> split_assignment(const std::string& assignment) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos)
    throw Error("--set " + shown_assignment(assignment) + ": expected KEY=VALUE, e.g. fabric.gpus=8");
  const std::string key(trim(std::string_view(assignment).substr(0, equals)));
  if (key.empty()) throw Error("--set " + shown_assignment(assignment) + ": empty key before '='");
  if (key.front() == '.' || key.back() == '.' || key.find("..") != std::string::npos)
    throw Error("--set " + shown_assignment(assignment) + ": malformed key '" + key + "' (empty segment)");
  return {key, assignment.substr(equals + 1)};
}

void apply_override(YAML::Node& root, const std::string& assignment) {
  const auto [key, value_text] = split_assignment(assignment);
  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::ParserException& error) {
    throw Error("--set " + shown_assignment(assignment) + ": invalid YAML value: " + error.msg);
  }
  // An empty document has no node to share, so give the caller's root one first.
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  // reset() rebinds `node`; plain assignment would overwrite the node it refers to.
  YAML::Node node;
  node.reset(root);
  std::string path;
  std::string_view rest = key;
  while (true) {
    const auto dot = rest.find('.');
    const std::string segment(rest.substr(0, dot));
    if (node.IsDefined() && !node.IsMap() && !node.IsNull())
      throw Error("--set " + shown_assignment(assignment) + ": cannot set '" + key + "' because " +
                  (path.empty() ? std::string("the config root") : "'" + path + "'") + " is not a map");
    if (dot == std::string_view::npos) {
      node[segment] = value;
      return;
    }
    path += (path.empty() ? "" : ".") + segment;
    node.reset(node[segment]);
    rest.remove_prefix(dot + 1);
  }
}

}  // namespace photonsim
