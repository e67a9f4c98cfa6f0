#include "sim/reports/provenance.h"

#include "core/build_info.h"
#include "core/version.h"
#include "sim/reports/json_writer.h"

namespace photonsim {

std::string shell_quoted(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    const bool plain = !a.empty() && a.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_-./:=@,+%") == std::string::npos;
    if (!out.empty()) out += ' ';
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::vector<std::string> provenance_file_names() { return {"provenance.json", "command.txt", "config.yaml"}; }

std::vector<std::pair<std::string, std::string>> provenance_files(const Provenance& p) {
  JsonWriter json;
  json.begin_object();
  json.field("photonsim", std::string(PHOTONSIM_VERSION)).field("git_revision", std::string(PHOTONSIM_GIT_REVISION));
  json.key("command").begin_array(JsonWriter::Layout::inline_);
  for (const std::string& a : p.command) json.string(a);
  json.end_array();
  json.field("config", p.config_path);
  if (!p.directory.empty()) json.field("directory", p.directory);
  json.end_object();
  const std::string cd = p.directory.empty() ? std::string() : "cd " + shell_quoted({p.directory}) + " && ";
  return {{"provenance.json", json.text()},
          {"command.txt", cd + shell_quoted(p.command) + "\n"},
          {"config.yaml", p.resolved_config}};
}

}  // namespace photonsim
