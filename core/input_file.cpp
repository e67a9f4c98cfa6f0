#include "core/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace photonsim {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

// Closes the descriptor on every way out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string describe_bytes(uint64_t bytes) {
  char text[64];
  if (bytes >= (uint64_t{1} << 30)) {
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / static_cast<double>(uint64_t{1} << 30));
  } else if (bytes >= kMiB) {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / static_cast<double>(kMiB));
  } else {
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  }
  return text;
}

std::string read_input_file(const std::string& path, const InputKind& kind) {
  const std::string named = std::string(kind.what) + " " + quoted_path(path);
  if (path.empty()) throw Error(std::string(kind.what) + ": the path is empty");
  // O_NONBLOCK: opening a FIFO for reading must not wait for a writer.
  const Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (file.fd < 0) {
    const int why = errno;
    throw Error("cannot read " + named + ": " + std::strerror(why));
  }
  struct stat st {};
  if (::fstat(file.fd, &st) != 0) throw Error("cannot read " + named + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    throw Error("cannot read " + named + ": it is " + kind_of(st.st_mode) +
                "; photonsim reads inputs from regular files only");
  }
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size > kind.max_bytes) {
    throw Error("cannot read " + named + ": it holds " + describe_bytes(size) + ", over the " +
                describe_bytes(kind.max_bytes) + " cap on " + kind.what + " inputs");
  }
  std::string text;
  text.resize(static_cast<size_t>(size));
  size_t got = 0;
  // A file that grows while read is read up to one byte past the cap.
  for (;;) {
    if (got == text.size()) {
      if (text.size() > kind.max_bytes) break;
      text.resize(std::min<size_t>(static_cast<size_t>(kind.max_bytes) + 1, text.size() + 65536));
    }
    const ssize_t n = ::read(file.fd, text.data() + got, text.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error("cannot read " + named + ": " + std::strerror(errno));
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  if (got > kind.max_bytes) {
    throw Error("cannot read " + named + ": it grew past the " + describe_bytes(kind.max_bytes) + " cap on " +
                kind.what + " inputs while it was read");
  }
  text.resize(got);
  return text;
}

}  // namespace photonsim
