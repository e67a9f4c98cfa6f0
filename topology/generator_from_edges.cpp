#include <sstream>

#include "core/error.h"
#include "core/input_file.h"
#include "topology/generators.h"

namespace photonsim {

namespace {

std::vector<Edge> read_edge_file(const ComponentParams& params, const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path, kEdgeListInput);
  } catch (const Error& e) {
    params.fail("file", e.what());
  }
  std::istringstream in(text);
  std::vector<Edge> edges;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const size_t comment = line.find('#');
    if (comment != std::string::npos) line.erase(comment);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank or comment line
    std::istringstream fields(line);
    int64_t u = 0, v = 0;
    std::string rest;
    if (!(fields >> u) || !(fields >> v) || (fields >> rest) || u < 0 || v < 0 || u > UINT32_MAX || v > UINT32_MAX) {
      params.fail("file", path + ":" + std::to_string(number) + ": expected 'src dst' (two node ids), got '" +
                              (line.size() > 80 ? line.substr(0, 77) + "..." : line) + "'");
    }
    edges.push_back({static_cast<Node>(u), static_cast<Node>(v)});
  }
  return edges;
}

}  // namespace

Topology make_from_edges(const ComponentParams& params, const GeneratorContext& context) {
  if (params.has("edges") == params.has("file")) params.fail("needs exactly one of 'edges' or 'file'");
  std::vector<Edge> edges = params.has("edges") ? params.edges("edges") : read_edge_file(params, params.text("file"));
  if (edges.empty()) params.fail(params.has("edges") ? "edges" : "file", "lists no circuits");
  const std::string name = params.has("name") ? params.text("name") : "from_edges";
  try {
    return Topology(name, context.gpus(), std::move(edges));
  } catch (const Error& e) {
    params.fail(params.has("edges") ? "edges" : "file", e.what());
  }
}

TopologyGenerator from_edges_generator() {
  return {"from_edges",
          "an explicit list of circuits",
          {ParameterSpec::computed("edges", ParameterType::edges, "none: give edges or file", "the circuits (or file)"),
           ParameterSpec::computed("file", ParameterType::text, "none: give edges or file",
                                   "PATH, 'src dst' per line, # comments (or edges)"),
           ParameterSpec::computed("name", ParameterType::text, "from_edges", "the topology's name in reports")},
          &make_from_edges,
          "n >= 1"};
}

}  // namespace photonsim
