#pragma once
// Contract: a sweep file (YAML, a contract scripts rely on):
//   base: quickstart.yaml          # an experiment config, relative to the sweep file
//   grid:                          # dotted config keys -> values; the product is swept
//     fabric.reconfig_delay: 1us..10ms x10   # range: log-spaced, N per decade, ends included
//     workload.message: [1MiB, 16MiB]        # list (or one value)
//   zip:                           # optional: keys whose lists vary together (equal lengths)
//     fabric.gpus: [8, 16]
//     workload.message: [4MB, 2MB]
// Ranges take times (ps..s), sizes (B..TB, KiB..TiB) or plain numbers; their
// points are exact integers of the base unit ("1258925ps", "4096B", "7").
// points() lists the product in order: grid keys in file order, the last
// varying fastest, then the zip group as one more axis. Errors name the key
// and file:line.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace photonsim {

struct SweepPoint {
  std::vector<std::pair<std::string, std::string>> values;  // (dotted key, value text), axis order
  std::vector<std::string> overrides() const;               // "key=value" for load_config
};

struct SweepSpec {
  std::string source;  // the sweep file
  std::string base;    // the base config path, resolved against the sweep file's folder
  struct Axis {
    std::vector<std::string> keys;                 // one key, or a zip group
    std::vector<std::vector<std::string>> values;  // values[i][j]: point i's value of keys[j]
  };
  std::vector<Axis> axes;
  // Repeated values dropped while loading (a list naming a value twice, a
  // log range rounding two points to one): each runs once; the CLI says so.
  std::vector<std::string> notes;

  std::vector<std::string> keys() const;  // every swept key, axis order
  std::vector<SweepPoint> points() const;
};

inline constexpr uint64_t kMaxSweepPoints = 1000000;

SweepSpec load_sweep(const std::string& path);
SweepSpec load_sweep_from_string(const std::string& yaml_text, const std::string& source_name,
                                 const std::string& directory);
// The sweep file's text as an --out folder keeps it (config.yaml): a
// relative `base:` rewritten to the absolute path of spec.base, so the kept
// file reruns from its own folder; everything else as written.
std::string sweep_text_with_absolute_base(const std::string& yaml_text, const SweepSpec& spec);
// "1us..10ms x10" -> the log-spaced points; throws Error naming `key` on a malformed range.
std::vector<std::string> expand_range(const std::string& text, const std::string& key);

}  // namespace photonsim
