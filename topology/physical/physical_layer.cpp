#include "topology/physical/physical_layer.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "core/error.h"
#include "core/spec/planning_failures.h"
#include "topology/physical/fiber_routing.h"
#include "topology/physical/mesh_routing.h"
#include "topology/physical/mzi_mesh.h"
#include "topology/physical/server_grid.h"

namespace photonsim {
namespace {

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
  // The failures known when planning: switches failed at 0 (port p of every
  // GPU) and failed MZIs.
  const PlanningFailures known = PlanningFailures::of(fabric);
  switch_failed_.assign(static_cast<size_t>(std::max(ports_, 0)), std::string());
  for (const PlanningFailures::SwitchExclusion& x : known.switches) {
    if (x.optical_switch >= 0 && x.optical_switch < ports_)
      switch_failed_[static_cast<size_t>(x.optical_switch)] = PlanningFailures::entry_name(fabric, x.entry);
  }
  failed_.resize(static_cast<size_t>(spec_.servers.count()));
  for (size_t entry : known.mzis) {
    const Failure& f = fabric.failures.entries[entry];
    // The loader keeps server, row and col inside fabric.physical.
    if (f.server < 0 || f.server >= spec_.servers.count() || f.row < 0 || f.row >= spec_.mesh.rows || f.col < 0 ||
        f.col >= spec_.mesh.cols)
      throw Error(PlanningFailures::entry_name(fabric, entry) + ": the MZI is outside fabric.physical's " +
                  std::to_string(spec_.servers.count()) + " servers of " + std::to_string(spec_.mesh.rows) + " x " +
                  std::to_string(spec_.mesh.cols) + " MZIs");
    failed_[static_cast<size_t>(f.server)].push_back(
        FailedMzi{f.row * spec_.mesh.cols + f.col, PlanningFailures::entry_name(fabric, entry)});
  }
  // Each GPU's working transceivers: on a surviving switch, on an MZI that did not fail.
  const int tiles = spec_.tiles.count();
  transmitters_.resize(static_cast<size_t>(gpus_));
  receivers_.resize(static_cast<size_t>(gpus_));
  for (int g = 0; g < gpus_; ++g) {
    for (int port = 0; port < ports_; ++port) {
      if (!switch_failed_[static_cast<size_t>(port)].empty()) continue;
      const int server = g / tiles, tile = g % tiles;
      if (failed(server, transceiver_node(tile, port, true)) == nullptr)
        transmitters_[static_cast<size_t>(g)].push_back(port);
      if (failed(server, transceiver_node(tile, port, false)) == nullptr)
        receivers_[static_cast<size_t>(g)].push_back(port);
    }
  }
  // A fiber is lost when its MZI at either end failed (one MZI serves both directions).
  const std::vector<std::pair<int, int>> edges = server_edges(ServerGrid{spec_.servers.rows, spec_.servers.cols});
  working_fibers_.resize(edges.size());
  lost_by_.resize(edges.size());
  std::vector<int> lost(edges.size(), 0);
  bool any_lost = false;
  for (size_t e = 0; e < edges.size(); ++e) {
    const auto [a, b] = edges[e];
    for (int fiber = 0; fiber < spec_.fibers; ++fiber) {
      const std::string* at_a = failed(a, fiber_node(a, b, fiber));
      const std::string* at_b = failed(b, fiber_node(b, a, fiber));
      if (at_a == nullptr && at_b == nullptr) {
        working_fibers_[e].push_back(fiber);
        continue;
      }
      ++lost[e];
      any_lost = true;
      for (const std::string* by : {at_a, at_b}) {
        if (by != nullptr && lost_by_[e].find(*by) == std::string::npos)
          lost_by_[e] += (lost_by_[e].empty() ? "" : ", ") + *by;
      }
    }
  }
  if (any_lost) lost_fibers_ = std::move(lost);
}

int PhysicalLayer::transceiver_node(int tile, int port, bool transmitter) const {
  // The region of the mesh a tile owns, and its transceivers: port k's
  // transmitter and receiver in the middle of the k-th band of rows, the
  // transmitter one column in from the tile's left side and the receiver one
  // in from its right (on the sides themselves in a tile 2 columns wide), so
  // they keep off the mesh's border, where the fibers attach.
  const PhysicalSpec& p = spec_;
  const int rows = p.mesh.rows, cols = p.mesh.cols;
  const int r0 = (tile / p.tiles.cols) * rows / p.tiles.rows;
  const int height = (tile / p.tiles.cols + 1) * rows / p.tiles.rows - r0;
  const int c0 = (tile % p.tiles.cols) * cols / p.tiles.cols;
  const int c1 = (tile % p.tiles.cols + 1) * cols / p.tiles.cols;
  const int inset = c1 - c0 >= 4 ? 1 : 0;
  const int row = r0 + (port * height) / ports_ + height / ports_ / 2;
  return row * cols + (transmitter ? c0 + inset : c1 - 1 - inset);
}

int PhysicalLayer::fiber_node(int server, int towards, int fiber) const {
  // Fiber f of a side: evenly spread along it, off the corners when the side
  // is long enough; the same MZI for both directions.
  const PhysicalSpec& p = spec_;
  const int rows = p.mesh.rows, cols = p.mesh.cols;
  const auto spread = [&](int side) {
    return p.fibers + 2 <= side ? (fiber + 1) * side / (p.fibers + 1) : fiber * side / p.fibers;
  };
  if (towards == server + 1) return spread(rows) * cols + cols - 1;                 // east
  if (towards == server - 1) return spread(rows) * cols;                            // west
  if (towards == server + p.servers.cols) return (rows - 1) * cols + spread(cols);  // south
  return spread(cols);                                                              // north
}

const std::string* PhysicalLayer::failed(int server, int node) const {
  for (const FailedMzi& f : failed_[static_cast<size_t>(server)]) {
    if (f.node == node) return &f.name;
  }
  return nullptr;
}

std::string PhysicalLayer::missing_transceivers(Node gpu, bool transmitter) const {
  const int tiles = spec_.tiles.count();
  const int server = static_cast<int>(gpu) / tiles, tile = static_cast<int>(gpu) % tiles;
  std::string out;
  for (int port = 0; port < ports_; ++port) {
    std::string why = switch_failed_[static_cast<size_t>(port)];
    if (why.empty()) {
      const int node = transceiver_node(tile, port, transmitter);
      if (const std::string* by = failed(server, node))
        why = "its MZI (" + std::to_string(node / spec_.mesh.cols) + ", " + std::to_string(node % spec_.mesh.cols) +
              ") failed, " + *by;
    } else {
      why = "its switch failed at 0, " + why;
    }
    if (!why.empty()) out += (out.empty() ? "" : "; ") + std::string("port ") + std::to_string(port) + ": " + why;
  }
  return out;
}

std::string PhysicalLayer::mzi_role(int server, int row, int col) const {
  const int node = row * spec_.mesh.cols + col;
  const int tiles = spec_.tiles.count();
  std::string out;
  const auto add = [&](const std::string& role) { out += (out.empty() ? "" : "; ") + role; };
  for (int tile = 0; tile < tiles; ++tile) {
    const int gpu = server * tiles + tile;
    for (int port = 0; port < ports_; ++port) {
      if (transceiver_node(tile, port, true) == node)
        add("GPU " + std::to_string(gpu) + "'s transmitter of port " + std::to_string(port));
      if (transceiver_node(tile, port, false) == node)
        add("GPU " + std::to_string(gpu) + "'s receiver of port " + std::to_string(port));
    }
  }
  for (const auto& [a, b] : server_edges(ServerGrid{spec_.servers.rows, spec_.servers.cols})) {
    if (a != server) continue;
    for (int fiber = 0; fiber < spec_.fibers; ++fiber) {
      if (fiber_node(a, b, fiber) == node)
        add("fiber " + std::to_string(fiber) + " towards server " + std::to_string(b));
    }
  }
  return out;
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

  const auto tile_of_node = [&](int node) {
    const int r = node / cols, c = node % cols;
    return (r * p.tiles.rows / rows) * p.tiles.cols + c * p.tiles.cols / cols;
  };

  // Transceivers in edge order: a GPU's k-th circuit out takes its k-th
  // working transmitter (every one, without failures: transmitter k).
  std::vector<int> next_tx(static_cast<size_t>(gpus_), 0), next_rx(static_cast<size_t>(gpus_), 0);
  std::vector<int> tx_node(edges.size()), rx_node(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    const auto [u, v] = edges[i];
    const int tu = static_cast<int>(u) % tiles, tv = static_cast<int>(v) % tiles;
    const int ku = next_tx[u]++, kv = next_rx[v]++;
    const std::vector<int>& tx = transmitters_[u];
    const std::vector<int>& rx = receivers_[v];
    if (ku >= static_cast<int>(tx.size()) || kv >= static_cast<int>(rx.size())) {
      const bool out_side = ku >= static_cast<int>(tx.size());
      const Node gpu = out_side ? u : v;
      const size_t working = out_side ? tx.size() : rx.size();
      if (working == static_cast<size_t>(ports_)) {
        out.failure = "GPU " + std::to_string(gpu) + " has more circuits than its tile has transceivers (" +
                      std::to_string(ports_) + ")";
      } else {
        out.failure = "GPU " + std::to_string(gpu) + " has more circuits " + (out_side ? "out" : "in") +
                      " than its tile has working " + (out_side ? "transmitters" : "receivers") + " (" +
                      std::to_string(working) + " of " + std::to_string(ports_) + "; " +
                      missing_transceivers(gpu, out_side) + ")";
      }
      return out;
    }
    tx_node[i] = transceiver_node(tu, tx[static_cast<size_t>(ku)], true);
    rx_node[i] = transceiver_node(tv, rx[static_cast<size_t>(kv)], false);
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
    options.lost = lost_fibers_;  // fibers whose MZI failed count as taken
    const FiberRouting routing = route_fibers(grid, demands, options);
    out.solver_seconds = routing.solve_seconds;
    out.fiber_bound = routing.best_bound;
    out.fibers_optimal = routing.optimal;
    // Per (edge, wavelength): the circuits on it, in demand order, take its
    // working fibers in order (0, 1, ... without failed MZIs); with shared
    // fibers an edge and its reverse count as one link.
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
        const std::vector<int>& working = working_fibers_[e];
        // Past the working fibers the configuration fails the check below, before any fiber is used.
        fiber_of[i].push_back(fiber < static_cast<int>(working.size()) ? working[static_cast<size_t>(fiber)] : -1);
        ++out.edges[e].circuits;
        out.edges[e].fibers = std::max(out.edges[e].fibers, fiber + 1);
        out.edges[slot(e)].fibers = std::max(out.edges[slot(e)].fibers, fiber + 1);
      }
      c.fiber_hops = static_cast<int>(c.servers.size()) - 1;
    }
    if (p.shared_fibers) {
      for (size_t e = 0; e < out.edges.size(); ++e) out.edges[e].fibers = out.edges[slot(e)].fibers;
    }
    for (size_t e = 0; e < lost_fibers_.size(); ++e) {
      out.edges[e].lost = lost_fibers_[e];
      out.edges[e].fibers += lost_fibers_[e];
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
                    " wavelength(s) per fiber" +
                    (worst->lost > 0 ? ", " + std::to_string(worst->lost) + " of them lost to failed MZIs: " +
                                           lost_by_[static_cast<size_t>(worst - out.edges.data())]
                                     : std::string()) +
                    (routing.optimal ? "" : "; the ILP hit its time limit") + "), fabric.physical.fibers is " +
                    std::to_string(p.fibers);
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
      seg.src = h == 0 ? tx_node[i] : fiber_node(s, c.servers[h - 1], fiber_of[i][h - 1]);
      seg.dst = h + 1 == c.servers.size() ? rx_node[i] : fiber_node(s, c.servers[h + 1], fiber_of[i][h]);
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
    std::vector<int> failed_here;  // no circuit crosses these
    for (const FailedMzi& f : failed_[s]) failed_here.push_back(f.node);
    const MeshRouting routing = route_mesh(mesh, requests, {}, {}, failed_here);
    out.mesh_seconds += routing.seconds;
    out.most_used_waveguide = std::max(out.most_used_waveguide, routing.most_used);
    if (!routing.complete) {
      size_t first = 0;
      while (request_of[first] != static_cast<size_t>(routing.first_failure)) ++first;
      const PhysicalCircuit& c = out.circuits[segments[s][first].circuit];
      std::string failed_mzis;
      for (const FailedMzi& f : failed_[s]) failed_mzis += (failed_mzis.empty() ? "" : ", ") + f.name;
      out.failure = "the MZI mesh of server " + std::to_string(s) + " cannot route circuit " + std::to_string(c.src) +
                    " -> " + std::to_string(c.dst) + " without two circuits of one wavelength on a waveguide" +
                    (failed_mzis.empty() ? "" : " or crossing a failed MZI") + " (" + std::to_string(routing.routed) +
                    " of " + std::to_string(requests.size()) +
                    " circuits through it routed; fabric.physical.wavelengths is " + std::to_string(p.wavelengths) +
                    (failed_mzis.empty() ? "" : "; failed: " + failed_mzis) + ")";
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
