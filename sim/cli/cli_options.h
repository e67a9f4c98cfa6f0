#pragma once
// Contract: the options several verbs share and the one way every verb parses
// its command line. parse() binds a verb's options and positional arguments
// (each to a string), refusing "--set KEY VALUE"; check_format() and
// seed_value() refuse a bad --format or --seed. Every refusal is a
// boost::program_options::error, which dispatch (cli.cpp) prints with
// "(see photonsim VERB --help)" and exit code 2.
#include <boost/program_options.hpp>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace photonsim::cli {

// --set, --format, --out, --fidelity and --seed, as run and replay take them.
struct CommonOptions {
  std::vector<std::string> sets;
  std::string format = "table";
  std::string fidelity = "packet";
  std::string out;
  std::optional<uint64_t> seed;
};

// The options of CommonOptions bound to `o` (--seed only `with_seed`), with --help.
boost::program_options::options_description common_description(CommonOptions& o, bool with_seed);

// Parses a verb's options plus its positional arguments, each bound to a string.
boost::program_options::variables_map parse(int argc, const char* const* argv,
                                            const boost::program_options::options_description& visible,
                                            const std::vector<std::pair<const char*, std::string*>>& positionals = {});

// With --help: prints `usage` (its usage line and what the verb does, ending
// in a blank line) and the verb's options to `out`, and returns true.
bool print_help_if_asked(const boost::program_options::variables_map& vm, std::ostream& out, const char* usage,
                         const boost::program_options::options_description& options);

// Refuses a --format that is none of `valid`, listing them.
void check_format(const std::string& format, std::initializer_list<const char*> valid);

// --seed as plain decimal digits in 0..2^64-1.
uint64_t seed_value(const boost::program_options::variables_map& vm);

}  // namespace photonsim::cli
