#include "core/atomic_file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace photonsim {

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::filesystem::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) {
    std::filesystem::create_directories(target.parent_path(), ec);
    if (ec) throw Error("cannot create directory '" + target.parent_path().string() + "': " + ec.message());
  }
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot write '" + path + "'");
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      throw Error("cannot write '" + path + "'");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw Error("cannot move '" + temporary + "' into place at '" + path + "'");
  }
}

}  // namespace photonsim
