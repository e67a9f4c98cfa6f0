// photonsim verify: a schedule (saved, or a config's) replayed block by
// block to prove its collective's post-condition (verbs.h).
#include <iostream>
#include <string>
#include <vector>

#include "core/memory_budget.h"
#include "schedules/model/schedule_io.h"
#include "schedules/verify/block_verifier.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/cli/cli_options.h"
#include "sim/cli/verb_support.h"
#include "sim/cli/verbs.h"
#include "sim/reports/json_text.h"

namespace po = boost::program_options;

namespace photonsim::cli {

int verb_verify(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget) {
  std::vector<std::string> sets;
  std::string input;
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")("set", po::value(&sets)->composing(),
                                                 "override a config key (repeatable; configs only)");
  // clang-format on
  po::variables_map vm = parse(argc, argv, d, {{"input", &input}});
  if (print_help_if_asked(vm, out,
                          "usage: photonsim verify CONFIG.yaml|FILE.pb\n"
                          "Replays the schedule block by block and proves the collective's post-condition, or names\n"
                          "the first violation (step, node, block). Exit 0 when proven, 1 otherwise.\n\n",
                          d))
    return 0;
  if (input.empty()) throw po::error("verify needs CONFIG.yaml or FILE.pb");
  const bool is_config = input.size() > 5 && (input.ends_with(".yaml") || input.ends_with(".yml"));
  const ExperimentPipeline pipeline(&budget);
  Schedule schedule = [&] {
    if (!is_config) return read_schedule(input);
    const ExperimentConfig config = pipeline.load(input, sets);
    ExperimentPipeline::require_one_collective(config, "verify");
    TerminalProgress progress = terminal_progress(err);
    return pipeline.synthesize(config, &progress);
  }();
  pipeline.check_verifier_budget(schedule, input);
  const Verification v = verify_schedule(schedule);
  const std::string what = std::string(to_string(schedule.collective())) + " / " + printable(schedule.algorithm()) +
                           " on " + std::to_string(schedule.gpus()) + " GPUs (" +
                           std::to_string(schedule.steps().size()) + " steps, " + std::to_string(v.transfers) +
                           " transfers, " + std::to_string(schedule.blocks()) + " blocks)";
  if (!v.ok()) {
    out << "violation: " << what << ": " << v.violation->describe() << "\n";
    return 1;
  }
  if (v.not_proven) {
    std::cerr << "photonsim: warning: " << input << ": not verified: " << *v.not_proven << "\n";
    out << "not verified: " << what << ": " << *v.not_proven << "\n";
    return 0;
  }
  out << "verified: " << what << "\n";
  return 0;
}

}  // namespace photonsim::cli
