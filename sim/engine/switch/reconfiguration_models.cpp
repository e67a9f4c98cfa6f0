#include "sim/engine/switch/reconfiguration_models.h"

#include <functional>
#include <utility>

#include "core/error.h"
#include "sim/engine/switch/constant_reconfiguration.h"

namespace photonsim {

namespace {

struct Entry {
  ReconfigurationModelInfo info;
  std::function<std::unique_ptr<ReconfigurationModel>()> make;
};

template <class Model>
Entry entry() {
  return {Model::info(), [] { return std::make_unique<Model>(); }};
}

// One line per model.
std::vector<Entry> entries() { return {entry<ConstantReconfiguration>()}; }

}  // namespace

std::vector<ReconfigurationModelInfo> reconfiguration_models() {
  std::vector<ReconfigurationModelInfo> out;
  for (Entry& e : entries()) out.push_back(std::move(e.info));
  return out;
}

std::unique_ptr<ReconfigurationModel> make_reconfiguration_model(const std::string& name) {
  std::string valid;
  for (Entry& e : entries()) {
    if (e.info.name == name) return e.make();
    valid += (valid.empty() ? "" : ", ") + e.info.name;
  }
  throw Error("fabric.reconfig_model: unknown model " + quoted(name) + " (valid: " + valid + ")");
}

}  // namespace photonsim
