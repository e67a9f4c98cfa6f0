#pragma once
// Contract: writes `content` to `path` whole or not at all: it goes to a
// temporary file beside the target, which is then renamed over it. Creates
// missing parent directories. Replaces only a regular file: a symlink, FIFO,
// device or directory at `path` is refused (check_replaceable), so an output
// path can never clobber what it points to. Throws Error naming the path.
#include <string>

namespace photonsim {

// Throws Error unless `path` is absent or a regular file (not a symlink).
void check_replaceable(const std::string& path);

void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace photonsim
