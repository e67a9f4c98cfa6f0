#pragma once
// Contract: what an --out folder records of how it was made, so a result
// can be traced to its inputs: provenance.json (photonsim's version and git
// revision, the command line as a list, the config's path), command.txt
// (the command line, shell-quoted, after a `cd` to the folder it ran in, so
// that `sh command.txt` reruns it from anywhere) and config.yaml (the config
// as read, every --set applied, file names absolute, so that it reruns from
// the folder it is saved in). No times or host names: the same command in
// the same folder writes the same bytes.
#include <string>
#include <utility>
#include <vector>

namespace photonsim {

struct Provenance {
  std::vector<std::string> command;  // argv, the program first
  std::string config_path;           // the config (a sweep: its sweep file)
  std::string resolved_config;       // config.yaml's text
  std::string directory;             // the working directory it ran in (empty: not known)
};

// (file name, contents) for each provenance file.
std::vector<std::pair<std::string, std::string>> provenance_files(const Provenance& provenance);

// The names provenance_files writes, for the checks made before writing.
std::vector<std::string> provenance_file_names();

// `argv` shell-quoted (single quotes where needed), one line.
std::string shell_quoted(const std::vector<std::string>& argv);

}  // namespace photonsim
