#include "topology/physical/mesh_routing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include "core/error.h"
#include "topology/physical/mesh_shortest_path.h"

namespace photonsim {

namespace {

// Penalties multiply weights up to here: a path of every waveguide of the
// largest mesh at this weight still sums far below the largest double.
constexpr double kMaxWeight = 1e250;

void check_arguments(const MziMesh& mesh, const std::vector<MeshRequest>& requests, const MeshRoutingOptions& options) {
  if (options.trials < 1)
    throw Error("mesh routing: trials must be at least 1 (got " + std::to_string(options.trials) + ")");
  if (!(options.penalty_factor > 1) || !std::isfinite(options.penalty_factor))
    throw Error("mesh routing: penalty_factor must be a finite number above 1 (got " +
                std::to_string(options.penalty_factor) + ")");
  for (size_t i = 0; i < requests.size(); ++i) {
    const MeshRequest& r = requests[i];
    const std::string which = "mesh routing: request " + std::to_string(i) + " (" + std::to_string(r.src) + " -> " +
                              std::to_string(r.dst) + ")";
    if (!mesh.contains(r.src) || !mesh.contains(r.dst))
      throw Error(which + " names a node outside the " + std::to_string(mesh.rows()) + " x " +
                  std::to_string(mesh.cols()) + " mesh (0.." + std::to_string(mesh.nodes() - 1) + ")");
    if (r.src == r.dst) throw Error(which + " has src == dst");
    if (r.wavelength < -1 || r.wavelength >= mesh.wavelengths())
      throw Error(which + " asks for wavelength " + std::to_string(r.wavelength) + " (the mesh has 0.." +
                  std::to_string(mesh.wavelengths() - 1) + ", or -1 for any)");
  }
}

// Marks the kept circuits' wavelengths taken on their waveguides and counts them in `load`.
void take_kept(const MziMesh& mesh, const std::vector<MeshRoute>& kept, std::vector<uint8_t>& taken,
               std::vector<int>& load) {
  const size_t guides = mesh.waveguides();
  for (size_t i = 0; i < kept.size(); ++i) {
    const MeshRoute& route = kept[i];
    const std::string which = "mesh routing: kept circuit " + std::to_string(i);
    if (route.wavelength < 0 || route.wavelength >= mesh.wavelengths())
      throw Error(which + " has wavelength " + std::to_string(route.wavelength) + " (the mesh has 0.." +
                  std::to_string(mesh.wavelengths() - 1) + ")");
    if (route.nodes.size() < 2) throw Error(which + " has fewer than two nodes");
    for (int n : route.nodes)
      if (!mesh.contains(n)) throw Error(which + " passes node " + std::to_string(n) + ", outside the mesh");
    for (size_t k = 0; k + 1 < route.nodes.size(); ++k) {
      const int g = mesh.waveguide(route.nodes[k], route.nodes[k + 1]);
      if (g < 0)
        throw Error(which + " steps from " + std::to_string(route.nodes[k]) + " to " +
                    std::to_string(route.nodes[k + 1]) + ", which are not neighbours");
      uint8_t& slot = taken[static_cast<size_t>(route.wavelength) * guides + static_cast<size_t>(g)];
      if (slot != 0)
        throw Error(which + " takes wavelength " + std::to_string(route.wavelength) + " on waveguide " +
                    std::to_string(g) + ", already taken by a kept circuit");
      slot = 1;
      ++load[static_cast<size_t>(g)];
    }
  }
}

bool has_free(const MziMesh& mesh, int node, std::span<const uint8_t> blocked) {
  for (const MziMesh::Link& link : mesh.neighbours(node))
    if (blocked[static_cast<size_t>(link.waveguide)] == 0) return true;
  return false;
}

}  // namespace

MeshRouting route_mesh(const MziMesh& mesh, const std::vector<MeshRequest>& requests, const MeshRoutingOptions& options,
                       const std::vector<MeshRoute>& kept, const std::vector<int>& failed) {
  const auto start = std::chrono::steady_clock::now();
  check_arguments(mesh, requests, options);
  const size_t guides = mesh.waveguides();
  // taken[w * guides + g]: wavelength w is in use on waveguide g.
  std::vector<uint8_t> taken(static_cast<size_t>(mesh.wavelengths()) * guides, 0);
  std::vector<int> load(guides, 0);  // circuits on each waveguide, kept and new
  // A failed MZI's waveguides: closed on every wavelength, never crossed.
  std::vector<uint8_t> closed(guides, 0);
  for (int node : failed) {
    if (!mesh.contains(node))
      throw Error("mesh routing: failed MZI " + std::to_string(node) + " is outside the " +
                  std::to_string(mesh.rows()) + " x " + std::to_string(mesh.cols()) + " mesh (0.." +
                  std::to_string(mesh.nodes() - 1) + ")");
    for (const MziMesh::Link& link : mesh.neighbours(node)) closed[static_cast<size_t>(link.waveguide)] = 1;
  }
  for (size_t i = 0; i < kept.size() && !failed.empty(); ++i) {
    for (int n : kept[i].nodes) {
      if (std::find(failed.begin(), failed.end(), n) != failed.end())
        throw Error("mesh routing: kept circuit " + std::to_string(i) + " passes MZI " + std::to_string(n) +
                    ", which failed");
    }
  }
  take_kept(mesh, kept, taken, load);
  std::vector<double> weight(guides);
  for (size_t g = 0; g < guides; ++g) weight[g] = 1.0 + load[g];
  for (size_t g = 0; g < guides; ++g) {
    if (closed[g] == 0) continue;
    weight[g] = std::numeric_limits<double>::infinity();
    for (size_t w = 0; w < static_cast<size_t>(mesh.wavelengths()); ++w) taken[w * guides + g] = 1;
  }

  MeshRouting result;
  result.routes.resize(requests.size());
  result.waveguide_use.assign(guides, 0);
  MeshShortestPath search(mesh);
  std::vector<int> path, crossed, penalised;
  for (size_t i = 0; i < requests.size(); ++i) {
    const MeshRequest& request = requests[i];
    const int first = request.wavelength < 0 ? 0 : request.wavelength;
    const int last = request.wavelength < 0 ? mesh.wavelengths() - 1 : request.wavelength;
    for (int w = first; w <= last && !result.routes[i].routed(); ++w) {
      const std::span<const uint8_t> blocked(taken.data() + static_cast<size_t>(w) * guides, guides);
      // An end whose waveguides all carry w already: every trial would fail.
      if (!has_free(mesh, request.src, blocked) || !has_free(mesh, request.dst, blocked)) continue;
      bool valid = false;
      for (int trial = 0; trial < options.trials && !valid; ++trial) {
        ++result.trials;
        if (!search.find(request.src, request.dst, weight, path, crossed, options.goal_directed)) break;
        valid = true;
        for (int g : crossed) {
          const auto gg = static_cast<size_t>(g);
          if (blocked[gg] == 0) continue;
          valid = false;
          weight[gg] = std::min(weight[gg] * options.penalty_factor, kMaxWeight);
          penalised.push_back(g);
        }
        // No valid path at all on this wavelength: the remaining trials could only fail.
        if (!valid && trial == 0 && !search.reachable(request.src, request.dst, blocked)) break;
      }
      for (int g : penalised) weight[static_cast<size_t>(g)] = 1.0 + load[static_cast<size_t>(g)];
      penalised.clear();
      if (!valid) continue;
      for (int g : crossed) {
        const auto gg = static_cast<size_t>(g);
        taken[static_cast<size_t>(w) * guides + gg] = 1;
        ++load[gg];
        ++result.waveguide_use[gg];
        weight[gg] = 1.0 + load[gg];
      }
      result.routes[i] = MeshRoute{path, w};
    }
    if (result.routes[i].routed())
      ++result.routed;
    else if (result.first_failure < 0)
      result.first_failure = static_cast<int>(i);
  }
  result.complete = result.first_failure < 0;
  result.most_used =
      result.waveguide_use.empty() ? 0 : *std::max_element(result.waveguide_use.begin(), result.waveguide_use.end());
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

double mesh_route_loss_db(const MziMesh& mesh, const MeshRoute& route, double per_mzi_db, double per_tile_crossing_db,
                          int tile_side) {
  if (tile_side < 1)
    throw Error("mesh route loss: tile_side must be at least 1 (got " + std::to_string(tile_side) + ")");
  int crossings = 0;
  for (size_t k = 0; k + 1 < route.nodes.size(); ++k) {
    const int a = route.nodes[k], b = route.nodes[k + 1];
    if (mesh.row(a) / tile_side != mesh.row(b) / tile_side || mesh.col(a) / tile_side != mesh.col(b) / tile_side)
      ++crossings;
  }
  return static_cast<double>(route.nodes.size()) * per_mzi_db + crossings * per_tile_crossing_db;
}

}  // namespace photonsim
