#include "core/output_guard.h"

#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <tuple>

#include "core/error.h"

namespace photonsim {

namespace {

// (device, inode, name): name is empty for a file that exists, else the
// output's name inside the existing folder (device, inode); a path whose
// folder does not exist either is its lexically normal absolute form.
using FileKey = std::tuple<uint64_t, uint64_t, std::string>;

std::optional<FileKey> key_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return FileKey{st.st_dev, st.st_ino, ""};
  std::error_code ec;
  const std::filesystem::path p(path);
  const std::filesystem::path folder = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  if (p.has_filename() && ::stat(folder.c_str(), &st) == 0) {
    return FileKey{st.st_dev, st.st_ino, p.filename().string()};
  }
  const std::filesystem::path absolute = std::filesystem::absolute(p, ec);
  if (ec) return std::nullopt;
  return FileKey{0, 0, absolute.lexically_normal().string()};
}

std::string describe(const NamedPath& p) { return p.role + " " + quoted_path(p.path); }

}  // namespace

void refuse_outputs_over_inputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  std::vector<std::pair<FileKey, const NamedPath*>> seen;
  for (const NamedPath& input : inputs) {
    if (const auto key = key_of(input.path)) seen.emplace_back(*key, &input);
  }
  const size_t input_count = seen.size();
  for (const NamedPath& output : outputs) {
    const auto key = key_of(output.path);
    if (!key) continue;  // a path the OS rejects: the write says why
    for (size_t i = 0; i < seen.size(); ++i) {
      if (seen[i].first != *key) continue;
      const bool is_input = i < input_count;
      throw Error("refusing to write " + describe(output) + ": it is the same file as " +
                  (is_input ? "the input " : "the output ") + describe(*seen[i].second) +
                  (is_input ? "; an output never replaces an input: give another path"
                            : "; two outputs cannot share a file: give another path"));
    }
    seen.emplace_back(*key, &output);
  }
}

}  // namespace photonsim
