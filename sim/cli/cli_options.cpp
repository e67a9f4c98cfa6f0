// The options several verbs share and the parsing of every verb's command
// line (cli_options.h).
#include "sim/cli/cli_options.h"

#include <algorithm>
#include <ostream>
#include <string_view>

namespace po = boost::program_options;

namespace photonsim::cli {
namespace {

// "--set KEY VALUE" (a space for the '=') would bind KEY alone and take VALUE
// for a positional argument, so the error would be about the wrong thing.
void check_set_assignments(int argc, const char* const* argv) {
  for (int i = 0; i + 1 < argc; ++i) {
    if (std::string_view(argv[i]) != "--set") continue;
    const std::string key = argv[i + 1];
    if (key.find('=') != std::string::npos) continue;
    std::string got = "--set " + key;
    if (i + 2 < argc && !std::string_view(argv[i + 2]).starts_with("-")) got += std::string(" ") + argv[i + 2];
    throw po::error(got + ": --set takes KEY=VALUE, joined by '=' (write --set " + key + "=" +
                    (i + 2 < argc && !std::string_view(argv[i + 2]).starts_with("-") ? argv[i + 2] : "VALUE") + ")");
  }
}

}  // namespace

// Boost would read "-1" into a uint64_t as 2^64-1; a seed is plain decimal digits.
uint64_t seed_value(const po::variables_map& vm) {
  const std::string text = vm["seed"].as<std::string>();
  uint64_t value = 0;
  const bool digits = !text.empty() && text.size() <= 20 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  bool fits = digits;
  for (char c : text) {
    if (!fits) break;
    fits = !__builtin_mul_overflow(value, 10u, &value) && !__builtin_add_overflow(value, uint64_t(c - '0'), &value);
  }
  if (!fits) {
    throw po::error("--seed: must be an integer in 0..18446744073709551615, got '" + text.substr(0, 80) + "'");
  }
  return value;
}

void check_format(const std::string& format, std::initializer_list<const char*> valid) {
  std::string names;
  for (const char* v : valid) {
    if (format == v) return;
    names += (names.empty() ? "" : ", ") + std::string(v);
  }
  throw po::error("--format: unknown format '" + format.substr(0, 80) + "' (valid: " + names + ")");
}

po::options_description common_description(CommonOptions& o, bool with_seed) {
  po::options_description d("options");
  // clang-format off
  d.add_options()("help,h", "show this help")(
      "set", po::value(&o.sets)->composing(),
      "override a config key, e.g. --set fabric.reconfig_delay=1us (repeatable)")(
      "format", po::value(&o.format)->default_value("table"), "output format: table, json or csv")(
      "out", po::value(&o.out), "directory for result.json, result.csv and schedule.pb")(
      "fidelity", po::value(&o.fidelity)->default_value("packet"),
      "packet (default), chunk (one packet per chunk: fast) or analytical (no simulation: the prediction)");
  // clang-format on
  if (with_seed) {
    // clang-format off
    d.add_options()("seed", po::value<std::string>(), "experiment seed (overrides `seed` in the config)");
    // clang-format on
  }
  return d;
}

bool print_help_if_asked(const po::variables_map& vm, std::ostream& out, const char* usage,
                         const po::options_description& options) {
  if (!vm.count("help")) return false;
  out << usage << options;
  return true;
}

po::variables_map parse(int argc, const char* const* argv, const po::options_description& visible,
                        const std::vector<std::pair<const char*, std::string*>>& positionals) {
  check_set_assignments(argc, argv);
  po::options_description hidden;
  po::positional_options_description positional;
  for (const auto& [name, target] : positionals) {
    // clang-format off
    hidden.add_options()(name, po::value(target));
    // clang-format on
    positional.add(name, 1);
  }
  po::options_description all;
  all.add(visible).add(hidden);
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
  po::notify(vm);
  return vm;
}

}  // namespace photonsim::cli
