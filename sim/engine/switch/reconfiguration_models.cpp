#include "sim/engine/switch/reconfiguration_models.h"

#include <functional>
#include <type_traits>
#include <utility>

#include "core/error.h"
#include "sim/engine/switch/constant_reconfiguration.h"
#include "sim/engine/switch/sequential_reconfiguration.h"

namespace photonsim {

namespace {

struct Entry {
  ReconfigurationModelInfo info;
  std::function<std::unique_ptr<ReconfigurationModel>(const ReconfigurationParameters&)> make;
};

template <class Model>
Entry entry() {
  return {Model::info(), [](const ReconfigurationParameters& parameters) -> std::unique_ptr<ReconfigurationModel> {
            if constexpr (std::is_constructible_v<Model, const ReconfigurationParameters&>)
              return std::make_unique<Model>(parameters);
            else
              return std::make_unique<Model>();
          }};
}

// One line per model.
std::vector<Entry> entries() { return {entry<ConstantReconfiguration>(), entry<SequentialReconfiguration>()}; }

}  // namespace

std::vector<ReconfigurationModelInfo> reconfiguration_models() {
  std::vector<ReconfigurationModelInfo> out;
  for (Entry& e : entries()) out.push_back(std::move(e.info));
  return out;
}

std::unique_ptr<ReconfigurationModel> make_reconfiguration_model(const std::string& name,
                                                                 const std::map<std::string, std::string>& params) {
  std::string valid;
  for (Entry& e : entries()) {
    if (e.info.name == name) return e.make(ReconfigurationParameters(e.info, params));
    valid += (valid.empty() ? "" : ", ") + e.info.name;
  }
  throw Error("fabric.reconfig_model: unknown model " + quoted(name) + " (valid: " + valid + ")");
}

}  // namespace photonsim
