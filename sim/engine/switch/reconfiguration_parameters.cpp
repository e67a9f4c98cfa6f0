#include "sim/engine/switch/reconfiguration_parameters.h"

#include <algorithm>
#include <utility>

#include "core/error.h"
#include "core/units.h"

namespace photonsim {
namespace {

std::string names(const ReconfigurationModelInfo& info) {
  std::string out;
  for (const ReconfigurationParameter& p : info.parameters) out += (out.empty() ? "" : ", ") + p.name;
  return out.empty() ? "none" : out;
}

}  // namespace

ReconfigurationParameters::ReconfigurationParameters(ReconfigurationModelInfo info,
                                                     std::map<std::string, std::string> given)
    : info_(std::move(info)), given_(std::move(given)) {
  for (const auto& [name, text] : given_) {
    const bool declared = std::any_of(info_.parameters.begin(), info_.parameters.end(),
                                      [&](const ReconfigurationParameter& p) { return p.name == name; });
    if (!declared)
      throw Error("fabric.reconfig_model: model " + quoted(info_.name) + " has no parameter " + quoted(name) +
                  " (valid: " + names(info_) + ")");
  }
}

std::string ReconfigurationParameters::value(const std::string& name) const {
  if (const auto it = given_.find(name); it != given_.end()) return it->second;
  for (const ReconfigurationParameter& p : info_.parameters)
    if (p.name == name) return p.default_value;
  throw Error("fabric.reconfig_model: model " + quoted(info_.name) + " reads the undeclared parameter " + quoted(name));
}

Time ReconfigurationParameters::time(const std::string& name) const {
  const std::string text = value(name);
  try {
    return parse_time(text);
  } catch (const UnitError& error) {
    throw Error("fabric.reconfig_model." + name + ": " + error.what());
  }
}

}  // namespace photonsim
