#pragma once
// Contract: PCCL's physical layer (YAML `fabric.physical`, its sections 2 and
// 4.3, Appendix B): servers on a grid, each an optical interposer whose tiles
// form a grid (one GPU per tile: GPU g sits on server g / tiles, tile
// g % tiles, both row-major), a mesh of MZI switches joined by waveguides
// per server, and fibers joining grid-neighbour servers. A circuit runs from
// its source tile's transmitter through the mesh, over fibers and meshes of
// the servers between, to its destination tile's receiver; no two circuits
// of one wavelength share a waveguide or a fiber. Absent from a fabric,
// every configuration within the port limits is assumed to exist.
// Plain value; the config loader checks the invariants noted per field.

namespace photonsim {

struct GridShape {
  int rows = 1;
  int cols = 1;
  int count() const { return rows * cols; }
};

struct PhysicalSpec {
  GridShape servers;    // servers.count() * tiles.count() == fabric.gpus
  GridShape tiles;      // per server
  GridShape mesh;       // MZIs per server: >= 2 columns and fabric.ports rows per tile
  int wavelengths = 1;  // per waveguide and per fiber, >= 1
  int fibers = 1;       // per direction of every server-grid edge, >= 1 (<= the mesh side they attach to)
  // true: a link's fibers carry both directions (`fibers` per link, circuits
  // both ways counted together); false: each direction has its own.
  bool shared_fibers = false;
  double mzi_loss_db = 0.0;         // per MZI a circuit crosses
  double tile_loss_db = 0.2;        // per tile boundary crossed (PCCL: the reticle stitch, 0.2 dB)
  double fiber_loss_db = 0.5;       // per waveguide-to-fiber coupling (PCCL section 4.4: 0.5 dB)
  double solver_time_limit_s = 10;  // Algorithm 4's ILP, per configuration
};

}  // namespace photonsim
