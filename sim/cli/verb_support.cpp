// What several verbs share beyond their options (verb_support.h).
#include "sim/cli/verb_support.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <system_error>

namespace photonsim::cli {

std::string working_directory() {
  std::error_code failed;
  const std::filesystem::path here = std::filesystem::current_path(failed);
  return failed ? std::string() : here.string();
}

TerminalProgress terminal_progress(std::ostream& err) {
  return TerminalProgress(err, &err == &std::cerr && ::isatty(2) == 1);
}

}  // namespace photonsim::cli
