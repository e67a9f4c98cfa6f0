#include "topology/physical/physical_layer.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "core/error.h"
#include "topology/physical/fiber_routing.h"
#include "topology/physical/mesh_routing.h"
#include "topology/physical/mzi_mesh.h"
#include "topology/physical/server_grid.h"

namespace photonsim {
namespace {

// Which side of a server faces its grid neighbour.
enum class Side { north, south, west, east };

struct Segment {
  size_t circuit = 0;
  int src = 0;  // MZI nodes of this server's mesh
  int dst = 0;
  int wavelength = -1;  // -1: any (a circuit inside one server)
};

}  // namespace

PhysicalLayer::PhysicalLayer(PhysicalSpec spec, const FabricSpec& fabric)
    : spec_(std::move(spec)), gpus_(fabric.gpus), ports_(fabric.ports) {
  if (spec_.servers.count() * spec_.tiles.count() != gpus_)
    throw Error("fabric.physical: servers x tiles must hold fabric.gpus = " + std::to_string(gpus_) + " GPUs");
}

std::optional<std::string> PhysicalLayer::why_not(const Topology& topology) const {
  const ConfigurationRouting& r = route(topology);
  if (r.failure.empty()) return std::nullopt;
  return r.failure;
}

const ConfigurationRouting& PhysicalLayer::route(const Topology& topology) const {
  if (topology.gpus() != gpus_)
    throw Error("fabric.physical: a configuration on " + std::to_string(topology.gpus()) + " GPUs, the fabric has " +
                std::to_string(gpus_));
  auto it = cache_.find(topology);
  if (it == cache_.end())
    it = cache_.emplace(topology, std::make_unique<ConfigurationRouting>(compute(topology))).first;
  return *it->second;
}

ConfigurationRouting PhysicalLayer::compute(const Topology& topology) const {
  const PhysicalSpec& p = spec_;
  const int tiles = p.tiles.count();
  const int rows = p.mesh.rows;
  const int cols = p.mesh.cols;
  const MziMesh mesh(rows, cols, p.wavelengths);
  const ServerGrid grid{p.servers.rows, p.servers.cols};
  ConfigurationRouting out;
  const auto& edges = topology.edges();
  out.circuits.resize(edges.size());

  // The region of the mesh a tile owns, and its transceivers: port k's
  // transmitter and receiver in the middle of the k-th band of rows, the
  // transmitter one column in from the tile's left side and the receiver one
  // in from its right (on the sides themselves in a tile 2 columns wide), so
  // they keep off the mesh's border, where the fibers attach.
  const auto tile_row0 = [&](int tile) { return (tile / p.tiles.cols) * rows / p.tiles.rows; };
  const auto tile_row1 = [&](int tile) { return (tile / p.tiles.cols + 1) * rows / p.tiles.rows; };
  const auto tile_col0 = [&](int tile) { return (tile % p.tiles.cols) * cols / p.tiles.cols; };
  const auto tile_col1 = [&](int tile) { return (tile % p.tiles.cols + 1) * cols / p.tiles.cols; };
  const auto port_row = [&](int tile, int port) {
    const int r0 = tile_row0(tile), height = tile_row1(tile) - r0;
    return r0 + (port * height) / ports_ + height / ports_ / 2;
  };
  const auto inset = [&](int tile) { return tile_col1(tile) - tile_col0(tile) >= 4 ? 1 : 0; };
  const auto tile_of_node = [&](int node) {
    const int r = node / cols, c = node % cols;
    return (r * p.tiles.rows / rows) * p.tiles.cols + c * p.tiles.cols / cols;
  };
  // Fiber f of a side: evenly spread along it, off the corners when the side
  // is long enough; the same MZI for both directions.
  const auto spread = [&](int fiber, int side) {
    return p.fibers + 2 <= side ? (fiber + 1) * side / (p.fibers + 1) : fiber * side / p.fibers;
  };
  const auto fiber_node = [&](Side side, int fiber) {
    switch (side) {
      case Side::east:
        return mesh.node(spread(fiber, rows), cols - 1);
      case Side::west:
        return mesh.node(spread(fiber, rows), 0);
      case Side::north:
        return mesh.node(0, spread(fiber, cols));
      case Side::south:
        return mesh.node(rows - 1, spread(fiber, cols));
    }
    return 0;
  };
  const auto side_towards = [&](int from, int to) {
    if (to == from + 1) return Side::east;
    if (to == from - 1) return Side::west;
    if (to == from + p.servers.cols) return Side::south;
    return Side::north;
  };

  // Transceivers in edge order: a GPU's k-th circuit out takes transmitter k.
  std::vector<int> next_tx(static_cast<size_t>(gpus_), 0), next_rx(static_cast<size_t>(gpus_), 0);
  std::vector<int> tx_node(edges.size()), rx_node(edges.size());
  const int ports = ports_;
  for (size_t i = 0; i < edges.size(); ++i) {
    const auto [u, v] = edges[i];
    const int tu = static_cast<int>(u) % tiles, tv = static_cast<int>(v) % tiles;
    const int ku = next_tx[u]++, kv = next_rx[v]++;
    if (ku >= ports || kv >= ports) {
      out.failure = "GPU " + std::to_string(ku >= ports ? u : v) +
                    " has more circuits than its tile has transceivers (" + std::to_string(ports) + ")";
      return out;
    }
    tx_node[i] = mesh.node(port_row(tu, ku), tile_col0(tu) + inset(tu));
    rx_node[i] = mesh.node(port_row(tv, kv), tile_col1(tv) - 1 - inset(tv));
    out.circuits[i].src = u;
    out.circuits[i].dst = v;
  }

  // Algorithm 4: the server path and wavelength of every circuit between servers.
  std::vector<FiberDemand> demands;
  std::vector<size_t> demand_circuit;
  for (size_t i = 0; i < edges.size(); ++i) {
    const int a = server_of(edges[i].first), b = server_of(edges[i].second);
    if (a != b) {
      demands.push_back({a, b});
      demand_circuit.push_back(i);
    } else {
      out.circuits[i].servers = {a};
    }
  }
  const std::vector<std::pair<int, int>> server_edges_list = server_edges(grid);
  std::map<std::pair<int, int>, size_t> edge_index;
  for (size_t e = 0; e < server_edges_list.size(); ++e) edge_index[server_edges_list[e]] = e;
  for (const auto& [from, to] : server_edges_list) out.edges.push_back(ServerEdgeLoad{from, to, 0, 0});
  // fiber_of[circuit][hop]: the fiber it takes on each server edge.
  std::vector<std::vector<int>> fiber_of(edges.size());
  if (!demands.empty()) {
    FiberRoutingOptions options;
    options.wavelengths = p.wavelengths;
    options.time_limit_s = p.solver_time_limit_s;
    options.shared_directions = p.shared_fibers;
    const FiberRouting routing = route_fibers(grid, demands, options);
    out.solver_seconds = routing.solve_seconds;
    out.fiber_bound = routing.best_bound;
    out.fibers_optimal = routing.optimal;
    // Per (edge, wavelength): the circuits on it, in demand order, take fibers
    // 0, 1, ...; with shared fibers an edge and its reverse count as one link.
    std::map<std::pair<size_t, int>, int> taken;
    const auto slot = [&](size_t e) {
      if (!p.shared_fibers) return e;
      const auto [from, to] = server_edges_list[e];
      return std::min(e, edge_index.at({to, from}));
    };
    for (size_t d = 0; d < demands.size(); ++d) {
      const size_t i = demand_circuit[d];
      PhysicalCircuit& c = out.circuits[i];
      c.servers = routing.paths[d];
      c.wavelength = routing.wavelength[d];
      for (size_t h = 0; h + 1 < c.servers.size(); ++h) {
        const size_t e = edge_index.at({c.servers[h], c.servers[h + 1]});
        const int fiber = taken[{slot(e), c.wavelength}]++;
        fiber_of[i].push_back(fiber);
        ++out.edges[e].circuits;
        out.edges[e].fibers = std::max(out.edges[e].fibers, fiber + 1);
        out.edges[slot(e)].fibers = std::max(out.edges[slot(e)].fibers, fiber + 1);
      }
      c.fiber_hops = static_cast<int>(c.servers.size()) - 1;
    }
    if (p.shared_fibers) {
      for (size_t e = 0; e < out.edges.size(); ++e) out.edges[e].fibers = out.edges[slot(e)].fibers;
    }
    for (const ServerEdgeLoad& e : out.edges) out.fibers_needed = std::max(out.fibers_needed, e.fibers);
    if (out.fibers_needed > p.fibers) {
      const ServerEdgeLoad* worst = &out.edges.front();
      for (const ServerEdgeLoad& e : out.edges) {
        if (e.fibers > worst->fibers) worst = &e;
      }
      const std::string where =
          p.shared_fibers ? " on the link between server " + std::to_string(worst->from) + " and server " +
                                std::to_string(worst->to)
                          : " from server " + std::to_string(worst->from) + " to server " + std::to_string(worst->to);
      out.failure = "its circuits need " + std::to_string(worst->fibers) + " fibers" + where + " (" +
                    std::to_string(worst->circuits) + " circuits, " + std::to_string(p.wavelengths) +
                    " wavelength(s) per fiber" + (routing.optimal ? "" : "; the ILP hit its time limit") +
                    "), fabric.physical.fibers is " + std::to_string(p.fibers);
      return out;
    }
  }

  // Algorithm 3 in every server: each circuit's stretch through it.
  std::vector<std::vector<Segment>> segments(static_cast<size_t>(p.servers.count()));
  for (size_t i = 0; i < edges.size(); ++i) {
    const PhysicalCircuit& c = out.circuits[i];
    for (size_t h = 0; h < c.servers.size(); ++h) {
      const int s = c.servers[h];
      Segment seg;
      seg.circuit = i;
      seg.wavelength = c.servers.size() > 1 ? c.wavelength : -1;
      seg.src = h == 0 ? tx_node[i] : fiber_node(side_towards(s, c.servers[h - 1]), fiber_of[i][h - 1]);
      seg.dst = h + 1 == c.servers.size() ? rx_node[i] : fiber_node(side_towards(s, c.servers[h + 1]), fiber_of[i][h]);
      segments[static_cast<size_t>(s)].push_back(seg);
    }
  }
  for (size_t s = 0; s < segments.size(); ++s) {
    if (segments[s].empty()) continue;
    // A stretch that starts where it ends (a transmitter on the fiber's MZI) crosses no waveguide.
    std::vector<MeshRequest> requests;
    std::vector<size_t> request_of(segments[s].size(), SIZE_MAX);
    for (size_t k = 0; k < segments[s].size(); ++k) {
      const Segment& seg = segments[s][k];
      if (seg.src == seg.dst) continue;
      request_of[k] = requests.size();
      requests.push_back(MeshRequest{seg.src, seg.dst, seg.wavelength});
    }
    const MeshRouting routing = route_mesh(mesh, requests);
    out.mesh_seconds += routing.seconds;
    out.most_used_waveguide = std::max(out.most_used_waveguide, routing.most_used);
    if (!routing.complete) {
      size_t failed = 0;
      while (request_of[failed] != static_cast<size_t>(routing.first_failure)) ++failed;
      const PhysicalCircuit& c = out.circuits[segments[s][failed].circuit];
      out.failure = "the MZI mesh of server " + std::to_string(s) + " cannot route circuit " + std::to_string(c.src) +
                    " -> " + std::to_string(c.dst) + " without two circuits of one wavelength on a waveguide (" +
                    std::to_string(routing.routed) + " of " + std::to_string(requests.size()) +
                    " circuits through it routed; fabric.physical.wavelengths is " + std::to_string(p.wavelengths) +
                    ")";
      return out;
    }
    for (size_t k = 0; k < segments[s].size(); ++k) {
      const Segment& seg = segments[s][k];
      const MeshRoute route =
          request_of[k] == SIZE_MAX ? MeshRoute{{seg.src}, std::max(seg.wavelength, 0)} : routing.routes[request_of[k]];
      PhysicalCircuit& c = out.circuits[seg.circuit];
      if (c.servers.size() == 1) c.wavelength = route.wavelength;
      c.mzis += static_cast<int>(route.nodes.size());
      for (size_t n = 1; n < route.nodes.size(); ++n) {
        if (tile_of_node(route.nodes[n]) != tile_of_node(route.nodes[n - 1])) ++c.tile_crossings;
      }
    }
  }
  for (PhysicalCircuit& c : out.circuits) {
    c.loss_db = c.mzis * p.mzi_loss_db + c.tile_crossings * p.tile_loss_db + 2 * c.fiber_hops * p.fiber_loss_db;
    out.longest_mzis = std::max(out.longest_mzis, c.mzis);
    out.worst_loss_db = std::max(out.worst_loss_db, c.loss_db);
    out.mzis_switched += c.mzis;
  }
  return out;
}

}  // namespace photonsim
