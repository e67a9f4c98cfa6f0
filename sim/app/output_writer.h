#pragma once
// Contract: the one writer of what photonsim saves, for every front end (the
// CLI's run, replay, synth and sweep, and Python's run, save and sweep): each
// file is written whole or not at all (core/atomic_file.h), and a folder
// named "" writes nothing.
//  - a run's folder: result.json, result.csv, schedule.pb and its provenance;
//  - a task graph's: graph.json, nodes.csv and its provenance;
//  - a sweep's: its provenance (results.csv is the sweep's own, row by row);
//  - a schedule: by the path's extension (.pb binary; .pbtxt, .textproto,
//    .txtpb text; .xml MSCCL), or as Chakra traces PATH.0.et .. PATH.(n-1).et.
// Which files a folder will hold (to refuse outputs over inputs before
// running) is output_files().
#include <string>
#include <vector>

#include "schedules/model/schedule.h"
#include "sim/reports/graph_report.h"
#include "sim/reports/provenance.h"
#include "sim/reports/run_report.h"

namespace photonsim {

enum class OutputFolder { run, graph, sweep };

// The names of the files a folder of that kind receives (provenance last).
std::vector<std::string> output_files(OutputFolder kind);
void write_provenance(const Provenance& provenance, const std::string& dir);
void write_run_outputs(const RunReport& report, const std::string& dir, const Provenance& provenance);
void write_graph_outputs(const GraphReport& report, const std::string& dir, const Provenance& provenance);
// Returns what it wrote, for the message: `path`, or PATH.0.et .. PATH.(n-1).et.
std::string write_schedule_files(const Schedule& schedule, const std::string& path, bool chakra);

}  // namespace photonsim
