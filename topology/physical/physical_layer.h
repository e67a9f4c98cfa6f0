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
// The failures known when planning (core/spec/planning_failures.h; built
// from the fabric as configured, not its planning_fabric()): a `switch` entry
// at 0 takes transceiver p of every tile (port p of every GPU) away, an `mzi`
// entry one MZI of a server's mesh. A GPU's k-th circuit out takes its k-th
// working transmitter (k-th circuit in: receiver), working meaning on a
// surviving switch and on an MZI that did not fail, so a GPU with more
// circuits than working transceivers makes the configuration not exist. A
// fiber whose MZI at either end failed is lost, both ways: Algorithm 4 counts
// it as taken on its edge (FiberRoutingOptions::lost), the circuits take the
// working fibers in order, and an edge's `fibers` (so fibers_needed) count
// its lost ones. Algorithm 3 routes no circuit through a failed MZI
// (route_mesh's `failed`). Without these failures every routing is the same
// as before.
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
  int fibers = 0;    // needed: the most circuits of one wavelength, plus its lost fibers
  int lost = 0;      // fibers lost to failed MZIs (counted in `fibers`)
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

  // What MZI (row, col) of `server` is to the layer, for messages: "GPU 5's
  // transmitter of port 0", "its receiver of port 1", "fiber 1 towards server
  // 2" (each it is, joined by "; "), or "" for an MZI inside the mesh.
  std::string mzi_role(int server, int row, int col) const;

 private:
  struct FailedMzi {
    int node = 0;      // in its server's mesh
    std::string name;  // "fabric.failures[3] (mzi, server 0, row 4, col 7)"
  };

  ConfigurationRouting compute(const Topology& topology) const;
  // The MZI of a tile's transmitter or receiver of port `port` (0 .. ports-1).
  int transceiver_node(int tile, int port, bool transmitter) const;
  // The MZI of `server` where fiber `fiber` of its side towards grid neighbour `towards` attaches.
  int fiber_node(int server, int towards, int fiber) const;
  // The entry of fabric.failures that failed MZI `node` of `server` (its
  // name), or null when none did.
  const std::string* failed(int server, int node) const;
  // Why a GPU has fewer working transmitters (or receivers) than ports: each
  // missing port and the entry that took it.
  std::string missing_transceivers(Node gpu, bool transmitter) const;

  PhysicalSpec spec_;
  int gpus_ = 0;
  int ports_ = 1;
  std::vector<std::string> switch_failed_;        // per port: the `switch` entry at 0 that took it, or ""
  std::vector<std::vector<FailedMzi>> failed_;    // per server
  std::vector<std::vector<int>> transmitters_;    // per GPU: its working transmitters' ports, ascending
  std::vector<std::vector<int>> receivers_;       // per GPU: its working receivers' ports, ascending
  std::vector<std::vector<int>> working_fibers_;  // per directed server edge (server_edges order)
  std::vector<int> lost_fibers_;                  // per directed server edge; empty when none is lost
  std::vector<std::string> lost_by_;              // per directed server edge: the entries that lost its fibers
  mutable std::unordered_map<Topology, std::unique_ptr<ConfigurationRouting>, TopologyHash> cache_;
};

}  // namespace photonsim
