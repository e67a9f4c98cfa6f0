#pragma once
// Contract: a command's outputs never replace its inputs, nor each other.
// Before anything is written, every output path is compared by file identity
// - device and inode, symlinks followed, so a hard link, a symlink or another
// spelling of a path is the same file - with every input the command read and
// with the other outputs; a match is an Error naming both paths and their
// roles ("--trace 'c.yaml' is the config 'c.yaml'"). An output that does not
// exist yet is identified by its folder's identity and its name.
#include <string>
#include <vector>

namespace photonsim {

struct NamedPath {
  std::string role;  // how the command calls it: "config", "--trace", "--out file result.json", ...
  std::string path;
};

void refuse_outputs_over_inputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

}  // namespace photonsim
