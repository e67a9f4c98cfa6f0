#include "sim/reports/topology_report.h"

#include "sim/reports/json_text.h"
#include "sim/reports/json_writer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "core/error.h"
#include "topology/flow/max_concurrent_flow.h"
#include "topology/topology_properties.h"

namespace photonsim {

namespace {

struct Degrees {
  int min_out = 0, max_out = 0, min_in = 0, max_in = 0;
};

Degrees degrees_of(const Topology& t) {
  std::vector<int> out(static_cast<size_t>(t.gpus()), 0), in(static_cast<size_t>(t.gpus()), 0);
  for (const Edge& e : t.edges()) {
    ++out[e.first];
    ++in[e.second];
  }
  return {*std::min_element(out.begin(), out.end()), *std::max_element(out.begin(), out.end()),
          *std::min_element(in.begin(), in.end()), *std::max_element(in.begin(), in.end())};
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);  // LP noise sits below 1e-10
  return buf;
}

std::string average_hops_text(const Topology& t) {
  return is_strongly_connected(t) ? number(average_hop_distance(t)) : "null";
}

}  // namespace

TopologyReport TopologyReport::build(std::string type, Topology topology, const std::optional<std::string>& demand) {
  TopologyReport r{std::move(type), std::move(topology), demand, std::nullopt, 0};
  if (demand) {
    if (*demand != "alltoall") throw Error("--demand: unknown demand '" + *demand + "' (valid: alltoall)");
    const auto begin = std::chrono::steady_clock::now();
    r.theta = max_concurrent_flow(r.topology, DemandMatrix::alltoall(r.topology.gpus())).theta;
    r.theta_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }
  return r;
}

std::string TopologyReport::json() const {
  const Degrees d = degrees_of(topology);
  JsonWriter out;
  out.begin_object()
      .field("type", type)
      .field("name", topology.name())
      .field("gpus", topology.gpus())
      .field("circuits", static_cast<uint64_t>(topology.edges().size()))
      .field("min_out_degree", d.min_out)
      .field("max_out_degree", d.max_out)
      .field("min_in_degree", d.min_in)
      .field("max_in_degree", d.max_in)
      .field("strongly_connected", is_strongly_connected(topology))
      .field("diameter", diameter(topology))
      .key("average_hops")
      .number(average_hops_text(topology));
  if (demand) out.field("demand", *demand).key("theta").number(number(*theta));
  out.key("edges").begin_array(JsonWriter::Layout::inline_);
  for (const Edge& e : topology.edges()) {
    out.begin_array(JsonWriter::Layout::inline_).integer(e.first).integer(e.second).end_array();
  }
  out.end_array().end_object();
  return out.text();
}

std::string TopologyReport::table() const {
  const Degrees d = degrees_of(topology);
  std::ostringstream out;
  out << "topology        " << printable(topology.name()) << " (" << type << ")\n"
      << "gpus            " << topology.gpus() << "\n"
      << "circuits        " << topology.edges().size() << "\n"
      << "out-degree      " << d.min_out << ".." << d.max_out << "\n"
      << "in-degree       " << d.min_in << ".." << d.max_in << "\n"
      << "connected       " << (is_strongly_connected(topology) ? "yes (strongly)" : "no") << "\n"
      << "diameter        " << diameter(topology) << "\n"
      << "average hops    " << average_hops_text(topology) << "\n";
  if (demand) {
    char line[128];
    std::snprintf(line, sizeof line, "theta (%s)  %s   (LP solved in %.3f s)\n", demand->c_str(),
                  number(*theta).c_str(), theta_seconds);
    out << line;
  }
  return out.str();
}

std::string TopologyReport::dot() const {
  std::ostringstream out;
  out << "digraph " << json_string(topology.name()) << " {\n";
  for (int u = 0; u < topology.gpus(); ++u) out << "  " << u << ";\n";
  for (const Edge& e : topology.edges()) out << "  " << e.first << " -> " << e.second << ";\n";
  out << "}\n";
  return out.str();
}

}  // namespace photonsim
