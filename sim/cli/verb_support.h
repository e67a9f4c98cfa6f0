#pragma once
// Contract: what several verbs share beyond their options: the folder the
// command runs in (for the provenance an --out folder keeps) and the progress
// of a long synthesis or simulation, shown only where stderr is a terminal.
#include <iosfwd>
#include <string>

#include "sim/cli/terminal_progress.h"

namespace photonsim::cli {

// Where the command runs, for command.txt's `cd`; empty when the OS cannot say (a removed folder).
std::string working_directory();

// Progress on `err`, drawn only when `err` is std::cerr and stderr is a terminal.
TerminalProgress terminal_progress(std::ostream& err);

}  // namespace photonsim::cli
