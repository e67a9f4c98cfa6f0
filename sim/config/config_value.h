#pragma once
// Contract: one value of a config as read: its YAML node, its dotted key and
// where it was written ("file:line", "file" or "--set key=value"), so every
// message about it can point there. fail_at throws Error("WHERE: message").
#include <yaml-cpp/yaml.h>

#include <string>

namespace photonsim {

struct ConfigValue {
  YAML::Node value;
  std::string key;    // dotted path; empty for the root
  std::string where;  // "file:line", "file" or "--set key=value"
};

[[noreturn]] void fail_at(const ConfigValue& value, const std::string& message);

// "a map", "a list", "a single value" or "nothing", for messages.
const char* describe(const YAML::Node& node);

}  // namespace photonsim
