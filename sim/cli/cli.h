#pragma once
// Contract: the photonsim command line. Verbs and flags are a contract:
//   photonsim run CONFIG.yaml [--set key=value]... [--format table|json|csv] [--out DIR] [--seed N]
//   photonsim synth CONFIG.yaml --out FILE.pb [--set key=value]...
//   photonsim replay FILE.pb CONFIG.yaml [--set ...] [--format ...] [--out DIR]
//   photonsim list
// Returns the process exit code: 0 success, 1 invalid input (one line on
// `err` naming the key, node or file), 2 bad command line, 3 internal error.
#include <iosfwd>

namespace photonsim {

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace photonsim
