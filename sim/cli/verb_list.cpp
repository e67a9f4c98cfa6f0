// photonsim list: every name a config may give (algorithms, planners,
// topologies, reconfiguration models: each from its registry, under the
// heading the schema gives it, naming the keys that take it) and every config
// key (from the schema alone); list --markdown: docs/config.md's table
// (verbs.h).
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/cli/verbs.h"
#include "sim/config/config_schema.h"
#include "sim/engine/switch/reconfiguration_models.h"

namespace photonsim::cli {
namespace {

std::string collective_names(const std::vector<Collective>& cs) {
  std::string out;
  for (Collective c : cs) out += (out.empty() ? "" : ",") + std::string(to_string(c));
  return out;
}

}  // namespace

int verb_list(int argc, const char* const* argv, std::ostream& out) {
  const ConfigSchema& schema = ConfigSchema::builtin();
  if (argc == 2 && std::string_view(argv[1]) == "--markdown") {
    out << schema.markdown();
    return 0;
  }
  if (argc > 1) throw Error(std::string("list: unknown argument '") + argv[1] + "' (valid: --markdown)");
  const ExperimentPipeline pipeline(nullptr);
  const SynthesizerRegistry& registry = pipeline.registry();
  const auto parameters = [](const std::vector<ParameterSpec>& specs) {
    std::string text;
    for (const ParameterSpec& p : specs) text += "\n      " + p.describe();
    return text;
  };
  out << schema.catalog_heading("algorithms") << "\n";
  for (const auto& a : registry.algorithms()) {
    out << "  " << a.info.name << "  [" << collective_names(a.info.collectives) << "; default planner "
        << a.info.default_planner << "; " << a.info.sizes << "]\n      " << a.info.description
        << parameters(a.info.parameters) << "\n";
  }
  out << schema.catalog_heading("planners") << "\n";
  for (const PlannerInfo& p : registry.planner_infos()) {
    out << "  " << p.name << "\n      " << p.description << parameters(p.parameters) << "\n";
  }
  out << schema.catalog_heading("topologies") << "\n";
  for (const auto& t : registry.topologies().entries()) {
    out << "  " << t.name << "  [" << t.sizes << "]\n      " << t.description << parameters(t.parameters) << "\n";
  }
  out << schema.catalog_heading("reconfiguration models") << "\n";
  for (const ReconfigurationModelInfo& m : reconfiguration_models()) {
    out << "  " << m.name << "\n      " << m.description << "\n";
    for (const ReconfigurationParameter& p : m.parameters)
      out << "      " << p.name << ": " << p.kind << ", default " << p.default_value << " - " << p.doc << "\n";
  }
  // Every enum's names, range and default: from the schema alone.
  out << "config keys (photonsim list --markdown: the table of docs/config.md):\n" << schema.text();
  return 0;
}

}  // namespace photonsim::cli
