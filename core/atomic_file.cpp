#include "core/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/error.h"

namespace photonsim {

const char* non_regular_kind(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return nullptr;  // absent: a new file
  if (S_ISREG(st.st_mode)) return nullptr;
  if (S_ISLNK(st.st_mode)) return "a symbolic link";
  if (S_ISDIR(st.st_mode)) return "a directory";
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "a device";
  return "not a regular file";
}

void check_replaceable(const std::string& path) {
  if (const char* kind = non_regular_kind(path)) {
    throw Error("refusing to write '" + path + "': it is " + kind +
                "; photonsim replaces only regular files (give a new path or a regular file)");
  }
}

void write_file_atomically(const std::string& path, const std::string& content) {
  check_replaceable(path);
  const std::filesystem::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) {
    std::filesystem::create_directories(target.parent_path(), ec);
    if (ec) {
      throw Error("cannot write '" + path + "': cannot create directory '" + target.parent_path().string() +
                  "': " + ec.message());
    }
  }
  // A unique temporary name, so concurrent writers never share one.
  std::string temporary = path + ".tmpXXXXXX";
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) throw Error("cannot write '" + path + "': " + std::strerror(errno));
  const char* data = content.data();
  size_t left = content.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      std::remove(temporary.c_str());
      throw Error("cannot write '" + path + "': " + why);
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  ::fchmod(fd, 0644);
  if (::close(fd) != 0) {
    std::remove(temporary.c_str());
    throw Error("cannot write '" + path + "'");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw Error("cannot move '" + temporary + "' into place at '" + path + "'");
  }
}

}  // namespace photonsim
