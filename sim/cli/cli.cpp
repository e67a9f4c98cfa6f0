// The photonsim command line's entry (cli.h): the usage, --version,
// --max-memory (taken out before any verb parses), the choice of verb
// (verbs.h) and how each kind of failure becomes a message and an exit code.
#include "sim/cli/cli.h"

#include <boost/program_options.hpp>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/build_info.h"
#include "core/error.h"
#include "core/memory_budget.h"
#include "core/version.h"
#include "sim/cli/verbs.h"
#include "sim/sweep/sweep_mpi.h"

namespace po = boost::program_options;

namespace photonsim {

namespace {

constexpr const char* kUsage =
    "photonsim " PHOTONSIM_VERSION
    " - packet-level simulator for photonic GPU fabrics\n"
    "\n"
    "usage:\n"
    "  photonsim run CONFIG.yaml [--set key=value]... [--format table|json|csv] [--out DIR] [--seed N]\n"
    "                [--fidelity packet|packet_reference|chunk|analytical] [--trace FILE.json]\n"
    "  photonsim synth CONFIG.yaml --out FILE.pb|FILE.xml|PREFIX [--format chakra] [--set key=value]...\n"
    "  photonsim replay FILE.pb CONFIG.yaml [--set key=value]... [--format table|json|csv] [--out DIR] [--no-verify]\n"
    "                [--trace FILE.json]\n"
    "  photonsim plan CONFIG.yaml [--set key=value]... [--format table|json]\n"
    "  photonsim list\n"
    "  photonsim verify CONFIG.yaml|FILE.pb [--set key=value]...\n"
    "  photonsim topo --type NAME --gpus N [--degree D] [--dims AxB[xC]] [--shift S] [--generators a,b,...]\n"
    "                 [--seed N] [--demand alltoall] [--format table|json|dot]\n"
    "  photonsim sweep SWEEP.yaml [--jobs N] [--out DIR] [--resume]\n"
    "  photonsim bound --gpus N --ports K [--reconfigs D] [--compare] [--format table|json|csv]\n"
    "  photonsim physical CONFIG.yaml [--step K] [--format table|json] [--set key=value]...\n"
    "  photonsim availability CONFIG.yaml [--days 30] [--seeds 100] [--policies LIST|all] [--format table|json|csv]\n"
    "  photonsim VERB --help\n"
    "\n"
    "every verb takes --max-memory SIZE (e.g. 8GiB; default 3/4 of physical memory): inputs estimated\n"
    "to need more are refused, and the process never grows past it.\n";

int dispatch(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  std::string memory_limit;                                   // for the bad_alloc message
  const std::vector<std::string> command(argv, argv + argc);  // as typed, for the provenance an --out keeps
  if (argc < 2) {
    err << kUsage;
    return 2;
  }
  const std::string verb = argv[1];
  try {
    if (verb == "--help" || verb == "-h" || verb == "help") {
      out << kUsage;
      return 0;
    }
    if (verb == "--version") {
      out << "photonsim " << PHOTONSIM_VERSION << (built_with_mpi() ? " (MPI)" : "") << "\n"
          << "git revision " << PHOTONSIM_GIT_REVISION << ", built in " << PHOTONSIM_BUILD_DIR << " from "
          << PHOTONSIM_BUILT_FROM << "\n";
      return 0;
    }
    // --max-memory applies to every verb, so it is taken out before the verb parses.
    std::vector<const char*> args(argv, argv + argc);
    std::optional<std::string> max_memory;
    for (size_t i = 2; i < args.size();) {
      const std::string a = args[i];
      if (a == "--max-memory" || a.starts_with("--max-memory=")) {
        if (a == "--max-memory" && i + 1 >= args.size()) throw po::error("--max-memory needs a SIZE, e.g. 8GiB");
        max_memory = a == "--max-memory" ? std::string(args[i + 1]) : a.substr(std::string("--max-memory=").size());
        args.erase(args.begin() + static_cast<long>(i),
                   args.begin() + static_cast<long>(i) + (a == "--max-memory" ? 2 : 1));
      } else {
        ++i;
      }
    }
    const MemoryBudget budget = [&] {
      try {
        return MemoryBudget::from_option(max_memory);
      } catch (const Error& e) {
        throw po::error(e.what());
      }
    }();
    budget.enforce();
    memory_limit = budget.describe();
    argc = static_cast<int>(args.size());
    argv = args.data();
    if (verb == "run") return cli::verb_run(argc - 1, argv + 1, out, err, false, budget, command);
    if (verb == "replay") return cli::verb_run(argc - 1, argv + 1, out, err, true, budget, command);
    if (verb == "synth") return cli::verb_synth(argc - 1, argv + 1, out, err, budget);
    if (verb == "list") return cli::verb_list(argc - 1, argv + 1, out);
    if (verb == "topo") return cli::verb_topo(argc - 1, argv + 1, out, budget);
    if (verb == "verify") return cli::verb_verify(argc - 1, argv + 1, out, err, budget);
    if (verb == "plan") return cli::verb_plan(argc - 1, argv + 1, out, err, budget);
    if (verb == "bound") return cli::verb_bound(argc - 1, argv + 1, out, err, budget);
    if (verb == "physical") return cli::verb_physical(argc - 1, argv + 1, out, err, budget);
    if (verb == "sweep") return cli::verb_sweep(argc - 1, argv + 1, out, err, budget, command);
    if (verb == "availability") return cli::verb_availability(argc - 1, argv + 1, out, err, budget);
    err << "photonsim: unknown command " << one_line(quoted(verb))
        << " (valid: run, synth, replay, plan, list, topo, verify, bound, sweep, physical, availability)\n";
    return 2;
  } catch (const po::error& e) {
    const std::string shown = one_line(verb.size() > 40 ? verb.substr(0, 40) + "..." : verb);
    err << "photonsim " << shown << ": " << one_line(e.what()) << " (see photonsim " << shown << " --help)\n";
    return 2;
  } catch (const Error& e) {
    err << "photonsim: error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    err << "photonsim: error: out of memory: the input needs more than the memory limit "
        << (memory_limit.empty() ? std::string("of this machine") : memory_limit)
        << "; the GPU count (fabric.gpus, --gpus) and workload.message set the size\n";
    return 1;
  } catch (const std::filesystem::filesystem_error& e) {
    // A path the OS rejects (too long, a loop of links) is the user's to fix.
    err << "photonsim: error: " << one_line(e.what()) << "\n";
    return 1;
  } catch (const std::exception& e) {
    err << "photonsim: internal error: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  const int code = dispatch(argc, argv, out, err);
  // Output lost on a full disk or a closed pipe is a failed run, not a quiet success.
  errno = 0;
  out.flush();
  if (!out) {
    const int why = errno;
    err << "photonsim: error: cannot write to standard output: "
        << (why != 0 ? std::strerror(why) : "the stream failed") << "\n";
    return code == 0 ? 1 : code;
  }
  return code;
}

}  // namespace photonsim
