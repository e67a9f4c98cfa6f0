#include "sim/reports/physical_report.h"

#include <map>
#include <sstream>

#include "core/error.h"
#include "sim/reports/json_writer.h"
#include "sim/reports/report_numbers.h"

namespace photonsim {
namespace {

std::string shape(const GridShape& g) { return std::to_string(g.rows) + "x" + std::to_string(g.cols); }

std::string steps_text(const std::vector<int>& steps) {
  std::string out;
  for (int s : steps) out += (out.empty() ? "" : ",") + (s < 0 ? std::string("initial") : std::to_string(s));
  return out;
}

}  // namespace

PhysicalReport PhysicalReport::build(const Schedule& schedule, const PhysicalLayer& physical, std::optional<int> step) {
  PhysicalReport report;
  const PhysicalSpec& p = physical.spec();
  report.about = to_string(schedule.collective()) + std::string(" / ") + schedule.algorithm() + " / planner " +
                 schedule.planner() + " on " + std::to_string(schedule.gpus()) + " GPUs: servers " + shape(p.servers) +
                 ", tiles " + shape(p.tiles) + " per server, mesh " + shape(p.mesh) + ", " + std::to_string(p.fibers) +
                 " fiber(s) per edge, " + std::to_string(p.wavelengths) + " wavelength(s)";
  const int steps = static_cast<int>(schedule.steps().size());
  if (step && (*step < 0 || *step >= steps))
    throw Error("--step " + std::to_string(*step) + ": the schedule has steps 0.." + std::to_string(steps - 1));
  std::map<int, size_t> row_of_topology;
  const auto add = [&](int topology, int at) {
    if (topology < 0) return;
    auto it = row_of_topology.find(topology);
    if (it == row_of_topology.end()) {
      const Topology& t = schedule.topologies()[static_cast<size_t>(topology)];
      it = row_of_topology.emplace(topology, report.configurations.size()).first;
      report.configurations.push_back(Configuration{{}, t.name(), physical.route(t)});
    }
    report.configurations[it->second].steps.push_back(at);
  };
  if (step) {
    add(schedule.steps()[static_cast<size_t>(*step)].topology, *step);
    report.circuits_detail = true;
    return report;
  }
  add(schedule.initial_topology(), -1);
  for (int s = 0; s < steps; ++s) add(schedule.steps()[static_cast<size_t>(s)].topology, s);
  return report;
}

std::string PhysicalReport::table() const {
  std::ostringstream out;
  out << about << "\n\n";
  for (const Configuration& c : configurations) {
    const ConfigurationRouting& r = c.routing;
    out << "steps " << steps_text(c.steps) << ": " << c.topology << "\n";
    if (!r.failure.empty()) {
      out << "  does not exist: " << r.failure << "\n\n";
      continue;
    }
    out << "  circuits routed     " << r.circuits.size() << "\n";
    out << "  fibers needed       " << r.fibers_needed << " (ILP bound " << fixed(r.fiber_bound, 0)
        << (r.fibers_optimal ? ", optimal" : ", time limit hit") << ")\n";
    std::string loaded;
    for (const ServerEdgeLoad& e : r.edges) {
      if (e.circuits == 0) continue;
      loaded += (loaded.empty() ? "" : ", ") + std::to_string(e.from) + "->" + std::to_string(e.to) + ": " +
                std::to_string(e.fibers);
    }
    out << "  fibers per edge     " << (loaded.empty() ? "none (every circuit inside one server)" : loaded) << "\n";
    std::string lost;  // only with failed MZIs, so a healthy fabric's report is as before
    for (const ServerEdgeLoad& e : r.edges) {
      if (e.lost == 0) continue;
      lost += (lost.empty() ? "" : ", ") + std::to_string(e.from) + "->" + std::to_string(e.to) + ": " +
              std::to_string(e.lost);
    }
    if (!lost.empty()) out << "  fibers lost         " << lost << " (to failed MZIs; counted in fibers per edge)\n";
    out << "  longest circuit     " << r.longest_mzis << " MZIs\n";
    out << "  worst loss          " << fixed(r.worst_loss_db, 2) << " dB\n";
    out << "  busiest waveguide   " << r.most_used_waveguide << " circuit(s)\n";
    out << "  MZIs switched       " << r.mzis_switched << "\n";
    out << "  solver time         " << fixed(r.solver_seconds, 3) << " s (fibers), " << fixed(r.mesh_seconds, 3)
        << " s (meshes)\n";
    if (circuits_detail) {
      out << "  circuit    servers            wavelength   MZIs  tiles  fibers  loss dB\n";
      for (const PhysicalCircuit& pc : r.circuits) {
        std::string servers;
        for (int s : pc.servers) servers += (servers.empty() ? "" : "-") + std::to_string(s);
        std::ostringstream line;
        line << "  " << pc.src << " -> " << pc.dst;
        std::string head = line.str();
        head.resize(std::max<size_t>(head.size() + 1, 13), ' ');
        servers.resize(std::max<size_t>(servers.size() + 1, 19), ' ');
        out << head << servers << pc.wavelength << "            " << pc.mzis << "     " << pc.tile_crossings << "      "
            << pc.fiber_hops << "       " << fixed(pc.loss_db, 2) << "\n";
      }
    }
    out << "\n";
  }
  return out.str();
}

std::string PhysicalReport::json() const {
  JsonWriter w;
  w.begin_object();
  w.field("about", about);
  w.key("configurations").begin_array();
  for (const Configuration& c : configurations) {
    const ConfigurationRouting& r = c.routing;
    w.begin_object();
    w.key("steps").begin_array(JsonWriter::Layout::inline_);
    for (int s : c.steps) w.integer(s);
    w.end_array();
    w.field("topology", c.topology);
    w.field("exists", r.failure.empty());
    if (!r.failure.empty()) w.field("failure", r.failure);
    w.field("circuits", static_cast<int64_t>(r.circuits.size()));
    w.field("fibers_needed", r.fibers_needed);
    w.key("fiber_bound").number(fixed(r.fiber_bound, 0));
    w.field("fibers_optimal", r.fibers_optimal);
    w.field("longest_mzis", r.longest_mzis);
    w.key("worst_loss_db").number(fixed(r.worst_loss_db, 3));
    w.field("most_used_waveguide", r.most_used_waveguide);
    w.field("mzis_switched", r.mzis_switched);
    w.key("solver_s").number(fixed(r.solver_seconds, 6));
    w.key("mesh_s").number(fixed(r.mesh_seconds, 6));
    w.key("edges").begin_array();
    for (const ServerEdgeLoad& e : r.edges) {
      w.begin_object(JsonWriter::Layout::inline_);
      w.field("from", e.from).field("to", e.to).field("circuits", e.circuits).field("fibers", e.fibers);
      if (e.lost > 0) w.field("lost", e.lost);  // only with failed MZIs: a healthy report is as before
      w.end_object();
    }
    w.end_array();
    if (circuits_detail) {
      w.key("circuit_routes").begin_array();
      for (const PhysicalCircuit& pc : r.circuits) {
        w.begin_object(JsonWriter::Layout::inline_);
        w.field("src", static_cast<int64_t>(pc.src)).field("dst", static_cast<int64_t>(pc.dst));
        w.key("servers").begin_array(JsonWriter::Layout::inline_);
        for (int s : pc.servers) w.integer(s);
        w.end_array();
        w.field("wavelength", pc.wavelength).field("mzis", pc.mzis).field("tile_crossings", pc.tile_crossings);
        w.field("fiber_hops", pc.fiber_hops);
        w.key("loss_db").number(fixed(pc.loss_db, 3));
        w.end_object();
      }
      w.end_array();
    }
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.text() + "\n";
}

}  // namespace photonsim
