// fabric's keys that are more than one value of one kind: the physical layer,
// the split bandwidth's conditions and the reconfiguration model.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "sim/config/config_readers.h"
#include "sim/config/key_parsers.h"
#include "sim/engine/switch/reconfiguration_models.h"

namespace photonsim {

// A GPU's bandwidth split over its transmitters gives circuits of
// different rates, which only barrier runs with store-and-forward and
// whole reconfigurations model.
void check_bandwidth_scope(ConfigReader&, const ConfigValue& scope, ExperimentConfig& config) {
  const FabricSpec& f = config.fabric;
  if (f.bandwidth_scope != BandwidthScope::gpu) return;
  const std::string prefix = scope.key + ": gpu ";
  if (f.router != RouterMode::store_and_forward)
    fail_at(scope, prefix +
                       "needs fabric.router: store_and_forward (cut-through between circuits of different "
                       "rates is not modelled; got router " +
                       to_string(f.router) + ")");
  if (f.sync != SyncMode::barrier)
    fail_at(scope, prefix +
                       "needs fabric.sync: barrier (a dataflow run changes circuits one at a time, and the "
                       "split rates depend on the whole configuration)");
  if (f.reconfiguration != ReconfigurationScope::all)
    fail_at(scope, prefix + "needs fabric.reconfiguration: all (got " + to_string(f.reconfiguration) +
                       ": a circuit kept across a partial reconfiguration would change rate with the circuits "
                       "around it, re-dividing its GPU's transmitters without going dark)");
  if (f.bandwidth.bps() % f.ports != 0)
    fail_at(scope, prefix + "splits fabric.bandwidth (" + std::to_string(f.bandwidth.bps()) +
                       " bps) over fabric.ports = " + std::to_string(f.ports) +
                       " transmitters: it must be a multiple of " + std::to_string(f.ports) + " bps");
}

// The keys through the schema, then what holds between them and the fabric.
void read_physical(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config) {
  const ConfigValue physical = reader.section(value);
  const FabricSpec& f = config.fabric;
  config.fabric.physical.emplace();
  reader.read_keys(physical, config);
  const PhysicalSpec& p = *config.fabric.physical;
  const ConfigValue mesh = reader.require(physical, "mesh");
  // PCCL's largest mesh is 256 x 256; past 1024 x 1024 a mesh alone takes gigabytes.
  if (p.mesh.rows > 1024 || p.mesh.cols > 1024)
    fail_at(mesh, mesh.key + ": at most 1024x1024 MZIs per server (got " + shape_text(p.mesh) + ")");
  if (static_cast<int64_t>(p.servers.count()) * p.tiles.count() != f.gpus)
    fail_at(reader.require(physical, "tiles"),
            "fabric.physical: servers " + shape_text(p.servers) + " x tiles " + shape_text(p.tiles) + " hold " +
                std::to_string(static_cast<int64_t>(p.servers.count()) * p.tiles.count()) +
                " GPUs (one per tile), fabric.gpus is " + std::to_string(f.gpus));
  // Each tile's transmitters sit on its first MZI column and its receivers
  // on its last, one row per port.
  if (p.mesh.cols < 2 * p.tiles.cols || p.mesh.rows < f.ports * p.tiles.rows)
    fail_at(mesh, mesh.key + ": a mesh of " + shape_text(p.mesh) + " MZIs gives each of the " + shape_text(p.tiles) +
                      " tiles fewer than 2 columns or fewer than fabric.ports = " + std::to_string(f.ports) +
                      " rows (need at least " + std::to_string(f.ports * p.tiles.rows) + "x" +
                      std::to_string(2 * p.tiles.cols) + ")");
  if (auto fibers = reader.find(physical, "fibers"); fibers && p.fibers > std::min(p.mesh.rows, p.mesh.cols))
    fail_at(*fibers, fibers->key + " = " + std::to_string(p.fibers) +
                         ": every fiber attaches to its own MZI on the server's side, and the mesh " +
                         shape_text(p.mesh) + " has " + std::to_string(std::min(p.mesh.rows, p.mesh.cols)) +
                         " on its shorter side");
}

// A model's name, or {type: NAME, PARAM: VALUE}: the name one of the models
// (sim/engine/switch/reconfiguration_models.h), each parameter one it
// declares, read by the parser of its kind.
void read_reconfig_model(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config) {
  auto [type, params] = read_component(reader, value, "reconfiguration model");
  const std::vector<ReconfigurationModelInfo> models = reconfiguration_models();
  const auto model = std::find_if(models.begin(), models.end(), [&](const auto& m) { return m.name == type; });
  if (model == models.end()) {
    std::string valid;
    for (const ReconfigurationModelInfo& m : models) valid += (valid.empty() ? "" : ", ") + m.name;
    fail_at(value, value.key + ": unknown model " + quoted(type) + " (valid: " + valid + ")");
  }
  for (auto& [name, text] : params) {
    const std::string key = ConfigReader::child_key(value, name);
    const ConfigValue param{value.value[name], key, reader.where(key, value.value[name].Mark())};
    const auto declared = std::find_if(model->parameters.begin(), model->parameters.end(),
                                       [&](const ReconfigurationParameter& p) { return p.name == name; });
    if (declared == model->parameters.end()) {
      std::string valid;
      for (const ReconfigurationParameter& p : model->parameters) valid += (valid.empty() ? "" : ", ") + p.name;
      fail_at(param, value.key + ": model " + quoted(type) + " has no parameter " + quoted(name) +
                         " (valid: " + (valid.empty() ? std::string("none") : valid) + ")");
    }
    // The value as the kind's parser reads it, in the unit the model reads back.
    if (declared->kind == "time") {
      text = std::to_string(read_time(param).picoseconds()) + "ps";
    } else if (declared->kind == "integer") {
      text = std::to_string(read_integer<int64_t>(param, 0, std::numeric_limits<int64_t>::max()));
    } else {
      text = read_text(param);
    }
  }
  config.fabric.reconfig_model = std::move(type);
  config.fabric.reconfig_params = std::move(params);
}

}  // namespace photonsim
