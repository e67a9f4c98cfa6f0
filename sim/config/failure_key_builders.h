#pragma once
// Contract: one builder per kind of key of a fabric.failures entry, as
// graph_key_builders.h has for a task graph's nodes: a schema line
// (builtin_failure_keys, config_schema_keys.cpp) names the key, the failure
// kinds that take it and those that require it, its default where it is
// optional and the field it fills; the builder makes the ConfigKey whose
// read_failure parses the value with the kind's parser (key_parsers.h) into
// the entry and checks it against the fabric read before (GPUs, ports,
// bandwidth, physical layer), every message naming the entry's key
// ("fabric.failures[2].gpu") and the values allowed.
#include <climits>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "sim/config/config_schema.h"
#include "sim/config/key_parsers.h"

namespace photonsim {

// A key of a fabric.failures entry ("fabric.failures[].NAME"): its default is
// "required" where every kind taking it requires it, else the kinds requiring
// it and `optional_default`; its doc ends with the kinds taking it.
inline ConfigKey failure_key(const std::string& name, std::string kind, std::string unit,
                             std::vector<std::string> kinds, std::vector<std::string> required_for,
                             std::string optional_default, std::string allowed, std::string doc, FailureRead read) {
  std::string default_value;
  if (required_for == kinds) {
    default_value = "required";
  } else {
    for (const std::string& k : required_for) default_value += (default_value.empty() ? "" : ", ") + k;
    if (!default_value.empty()) default_value = "required (" + default_value + "); ";
    default_value += optional_default;
  }
  std::string taking;
  for (const std::string& k : kinds) taking += (taking.empty() ? "" : ", ") + k;
  ConfigKey key{"fabric.failures[]." + name,
                std::move(kind),
                std::move(unit),
                default_value,
                std::move(allowed),
                std::move(doc) + " (" + taking + " failures)"};
  key.node_types = std::move(kinds);
  key.required_for = std::move(required_for);
  key.read_failure = std::move(read);
  return key;
}

// An index 0 .. count-1 of what `what` counts; `why` says where the count
// comes from ("fabric.gpus is 8").
inline int read_failure_index(const ConfigValue& value, int count, const std::string& what, const std::string& why) {
  const std::string text = read_text(value);
  const auto refuse = [&]() {
    fail_at(value, value.key + " must be " + what + " in 0.." + std::to_string(count - 1) + " (" + why + "; got " +
                       quoted(text) + ")");
  };
  int index = 0;
  try {
    index = value.value.as<int>();
  } catch (const YAML::BadConversion&) {
    refuse();
  }
  if (index < 0 || index >= count) refuse();
  return index;
}

// An index of what `count(fabric)` counts, stored into `field`.
template <class Count>
ConfigKey failure_index_key(const std::string& name, int Failure::*field, std::string unit,
                            std::vector<std::string> kinds, std::string allowed, std::string what, Count count,
                            std::string doc) {
  std::vector<std::string> required_for = kinds;
  return failure_key(
      name, "integer", std::move(unit), std::move(kinds), std::move(required_for), "", std::move(allowed),
      std::move(doc),
      [field, what = std::move(what), count](const ConfigValue& value, const FabricSpec& fabric, Failure& failure) {
        const auto [n, why] = count(fabric);
        failure.*field = read_failure_index(value, n, what, why);
      });
}

}  // namespace photonsim
