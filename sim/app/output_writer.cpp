#include "sim/app/output_writer.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "schedules/model/schedule_io.h"
#include "schedules/msccl/msccl_writer.h"
#include "sim/interop/chakra_writer.h"

namespace photonsim {

std::vector<std::string> output_files(OutputFolder kind) {
  std::vector<std::string> names;
  if (kind == OutputFolder::run) names = {"result.json", "result.csv", "schedule.pb"};
  if (kind == OutputFolder::graph) names = {"graph.json", "nodes.csv"};
  for (std::string& name : provenance_file_names()) names.push_back(std::move(name));
  return names;
}

void write_provenance(const Provenance& provenance, const std::string& dir) {
  if (dir.empty()) return;
  for (const auto& [name, text] : provenance_files(provenance)) write_file_atomically(dir + "/" + name, text);
}

void write_run_outputs(const RunReport& report, const std::string& dir, const Provenance& provenance) {
  if (dir.empty()) return;
  write_file_atomically(dir + "/result.json", report.json());
  write_file_atomically(dir + "/result.csv", report.csv());
  write_schedule(report.schedule, dir + "/schedule.pb");
  write_provenance(provenance, dir);
}

void write_graph_outputs(const GraphReport& report, const std::string& dir, const Provenance& provenance) {
  if (dir.empty()) return;
  write_file_atomically(dir + "/graph.json", report.json());
  write_file_atomically(dir + "/nodes.csv", report.csv());
  write_provenance(provenance, dir);
}

std::string write_schedule_files(const Schedule& schedule, const std::string& path, bool chakra) {
  if (chakra) {
    const std::vector<std::string> traces = chakra_traces_of(schedule);
    for (size_t r = 0; r < traces.size(); ++r) write_file_atomically(path + "." + std::to_string(r) + ".et", traces[r]);
    return path + ".0.et .. " + path + "." + std::to_string(traces.size() - 1) + ".et";
  }
  if (path.ends_with(".xml")) {
    std::string xml;
    try {
      xml = write_msccl_xml(schedule);
    } catch (const Error& e) {
      throw Error(path + ": " + e.what());
    }
    write_file_atomically(path, xml);
  } else {
    write_schedule(schedule, path);
  }
  return path;
}

}  // namespace photonsim
