#pragma once
// Contract: writes `content` to `path` whole or not at all: it goes to a
// temporary file beside the target, which is then renamed over it. Creates
// missing parent directories. Throws Error naming the path on failure.
#include <string>

namespace photonsim {

void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace photonsim
