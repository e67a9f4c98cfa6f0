#pragma once
// Contract: what `photonsim physical` prints: per configuration of a
// synthesized schedule (its initial one, then each distinct one its steps
// use, with the steps that use it) how fabric.physical realises it: circuits
// routed, fibers needed per server edge (with the ILP's bound and whether it
// proved them minimal), the longest circuit in MZIs, the worst loss, the
// busiest waveguide, the MZIs switched and the solvers' times. With a step,
// only that step's configuration, circuit by circuit. JSON keys are a
// contract: `configurations` (each: `steps`, `topology`, `circuits`,
// `fibers_needed`, `fiber_bound`, `fibers_optimal`, `longest_mzis`,
// `worst_loss_db`, `most_used_waveguide`, `mzis_switched`, `solver_s`,
// `mesh_s`, `edges` [{`from`, `to`, `circuits`, `fibers`}], and with a step
// `circuit_routes` [{`src`, `dst`, `servers`, `wavelength`, `mzis`,
// `tile_crossings`, `fiber_hops`, `loss_db`}]).
#include <optional>
#include <string>
#include <vector>

#include "schedules/model/schedule.h"
#include "topology/physical/physical_layer.h"

namespace photonsim {

struct PhysicalReport {
  struct Configuration {
    std::vector<int> steps;  // -1: the initial configuration
    std::string topology;
    ConfigurationRouting routing;
  };
  std::string about;  // "allreduce / rhd / planner pccl on 16 GPUs: servers 2x2, tiles 2x2, mesh 8x8, ..."
  std::vector<Configuration> configurations;
  bool circuits_detail = false;

  // Throws Error for a step outside the schedule.
  static PhysicalReport build(const Schedule& schedule, const PhysicalLayer& physical, std::optional<int> step);
  std::string table() const;
  std::string json() const;
};

}  // namespace photonsim
