// photonsim sweep: every point of a sweep file run (locally or under MPI),
// one CSV row each, and the sweep's provenance (verbs.h).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/input_file.h"
#include "core/memory_budget.h"
#include "sim/app/output_writer.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/verb_support.h"
#include "sim/cli/verbs.h"
#include "sim/reports/provenance.h"
#include "sim/sweep/sweep_mpi.h"
#include "sim/sweep/sweep_runner.h"
#include "sim/sweep/sweep_spec.h"

namespace po = boost::program_options;

namespace photonsim::cli {

int verb_sweep(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget,
               const std::vector<std::string>& command) {
  std::string sweep_path, out_dir;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")("jobs", po::value(&jobs), "points run at once (default: all cores)")(
      "out", po::value(&out_dir), "directory for results.csv (default: results/<sweep file name>)")(
      "resume", "skip points already in results.csv");
  // clang-format on
  po::variables_map vm = parse(argc, argv, d, {{"sweep", &sweep_path}});
  if (print_help_if_asked(
          vm, out,
          "usage: photonsim sweep SWEEP.yaml [options]\n"
          "Runs every point of a sweep (base: CONFIG, grid: and zip: of dotted keys) and writes one CSV row per "
          "point.\n\n",
          d))
    return 0;
  if (sweep_path.empty()) throw po::error("sweep needs SWEEP.yaml");
  if (jobs < 1) throw po::error("--jobs: must be at least 1, got " + std::to_string(jobs));
  const SweepSpec spec = load_sweep(sweep_path);
  for (const std::string& note : spec.notes) err << "sweep: " << note << "\n";
  SweepOptions options;
  options.jobs = jobs;
  options.out_dir = out_dir.empty() ? "results/" + std::filesystem::path(sweep_path).stem().string() : out_dir;
  options.resume = vm.count("resume") > 0;
  options.progress = ::isatty(2) == 1;
  options.memory = budget;
  const SweepOutcome o = run_sweep(spec, options, err);
  if (!o.report) return 0;
  // The sweep file as written, its base named by an absolute path so that it reruns from the folder.
  write_provenance(
      Provenance{command, sweep_path, sweep_text_with_absolute_base(read_input_file(sweep_path, kSweepInput), spec),
                 working_directory()},
      options.out_dir);
  out << "sweep: " << o.points << " points, " << o.ran << " ran, " << o.skipped << " already done, " << o.failed
      << " failed; " << options.out_dir << "/results.csv\n";
  if (o.failed > 0)
    throw Error(std::to_string(o.failed) + " point(s) failed (see above); rerun with --resume after fixing them");
  return 0;
}

}  // namespace photonsim::cli
