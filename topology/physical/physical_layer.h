#pragma once
// Contract: whether a configuration exists on the hardware of fabric.physical
// (core/spec/physical_spec.h), and how: every circuit (a directed edge of the
// Topology; a GPU's k-th circuit out uses its k-th transmitter, its k-th
// circuit in its k-th receiver) is routed across the server grid by PCCL's
// Algorithm 4 (an ILP minimising the fibers on the busiest server edge,
// FiberRouting), which also fixes its wavelength and so its fiber on each
// edge, and then through the MZI mesh of every server it crosses by
// Algorithm 3 (MeshRouting): from the transmitter or the fiber it arrives on
// to the receiver or the fiber it leaves on, its wavelength kept. A
// configuration that needs more fibers than fabric.physical.fibers on some
// edge, or whose circuits cannot share a mesh without two of one wavelength
// on a waveguide, does not exist; why_not() says which and where. Results
// are cached per configuration (by circuits) for the layer's lifetime: one
// layer serves one synthesis, its planners and its candidates.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/spec/physical_spec.h"
#include "topology/topology.h"
#include "topology/topology_hash.h"

namespace photonsim {

struct PhysicalCircuit {
  Node src = 0;
  Node dst = 0;
  std::vector<int> servers;  // the servers crossed, src's .. dst's
  int wavelength = 0;
  int mzis = 0;            // MZIs crossed in all meshes
  int tile_crossings = 0;  // tile boundaries crossed
  int fiber_hops = 0;      // fibers crossed
  double loss_db = 0;
};

struct ServerEdgeLoad {
  int from = 0;
  int to = 0;
  int circuits = 0;  // on this directed edge, all wavelengths
  int fibers = 0;    // needed: the most circuits of one wavelength
};

struct ConfigurationRouting {
  std::vector<PhysicalCircuit> circuits;  // in the Topology's edge order
  std::vector<ServerEdgeLoad> edges;      // every directed server-grid edge
  int fibers_needed = 0;                  // the busiest edge's fibers
  double fiber_bound = 0;                 // the ILP's lower bound on fibers_needed
  bool fibers_optimal = true;             // proven optimal (false: time limit hit)
  int longest_mzis = 0;
  double worst_loss_db = 0;
  int most_used_waveguide = 0;  // circuits on the busiest waveguide, any server
  int mzis_switched = 0;        // MZIs the configuration sets (every circuit's)
  double solver_seconds = 0;    // Algorithm 4
  double mesh_seconds = 0;      // Algorithm 3, all servers
  std::string failure;          // empty: the configuration exists
};

class PhysicalLayer {
 public:
  PhysicalLayer(PhysicalSpec spec, const FabricSpec& fabric);

  const PhysicalSpec& spec() const { return spec_; }
  // Routes `topology` (cached). Throws Error only for a topology not on fabric.gpus GPUs.
  const ConfigurationRouting& route(const Topology& topology) const;
  // Empty when the configuration exists; else one line saying why not.
  std::optional<std::string> why_not(const Topology& topology) const;

  int server_of(Node gpu) const { return static_cast<int>(gpu) / spec_.tiles.count(); }

 private:
  ConfigurationRouting compute(const Topology& topology) const;

  PhysicalSpec spec_;
  int gpus_ = 0;
  int ports_ = 1;
  mutable std::unordered_map<Topology, std::unique_ptr<ConfigurationRouting>, TopologyHash> cache_;
};

}  // namespace photonsim
