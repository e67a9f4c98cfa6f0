#pragma once
// Contract: the verbs of the command line, one function each (one file each,
// verb_NAME.cpp). A verb gets its own arguments (argv[0] is the verb) and
// returns the process exit code; it throws boost::program_options::error for
// a bad command line and Error for invalid input, which dispatch (cli.cpp)
// turns into messages and exit codes 2 and 1. `budget` is --max-memory's;
// `command` is the command line as typed, for the provenance --out keeps.
#include <iosfwd>
#include <string>
#include <vector>

namespace photonsim {
class MemoryBudget;
}

namespace photonsim::cli {

// run CONFIG.yaml, or (`replay`) replay FILE.pb CONFIG.yaml.
int verb_run(int argc, const char* const* argv, std::ostream& out, std::ostream& err, bool replay,
             const MemoryBudget& budget, const std::vector<std::string>& command);
int verb_synth(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget);
int verb_topo(int argc, const char* const* argv, std::ostream& out, const MemoryBudget& budget);
int verb_plan(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget);
int verb_physical(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget);
int verb_bound(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget);
int verb_sweep(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget,
               const std::vector<std::string>& command);
int verb_verify(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const MemoryBudget& budget);
// availability CONFIG.yaml: goodput under drawn failures, per on_failure policy.
int verb_availability(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                      const MemoryBudget& budget);
// list, or list --markdown (docs/config.md's table).
int verb_list(int argc, const char* const* argv, std::ostream& out);

}  // namespace photonsim::cli
