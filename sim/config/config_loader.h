#pragma once
// Contract: turns a YAML experiment (plus "dotted.key=value" --set overrides,
// applied before validation) into a fully validated ExperimentConfig, or throws
// photonsim::Error with a one-line message that names the dotted key and where
// it came from ("file:line:" for YAML content, "--set key=value:" for an
// override). Units are parsed and range-checked here; names owned by registries
// (algorithm, planner, topology type and parameters) are only checked for shape.
#include <string>
#include <vector>

#include "sim/config/experiment_config.h"

namespace YAML {
class Node;
}

namespace photonsim {

class MemoryBudget;

// Loads and validates an experiment. `overrides` are "dotted.key=value" strings
// from --set, applied on top of the file before validation. With `budget`, a
// task graph's estimated memory (sim/config/graph_memory_estimate.h) is checked
// against it before the graph is read (from its file's size) and before it is
// built (from its node count): MemoryBudget::check's Error, naming the file.
ExperimentConfig load_config(const std::string& path, const std::vector<std::string>& overrides = {},
                             const MemoryBudget* budget = nullptr);

// Same from text; `source_name` is used in messages in place of a file path.
ExperimentConfig load_config_from_string(const std::string& yaml_text, const std::string& source_name,
                                         const std::vector<std::string>& overrides = {},
                                         const MemoryBudget* budget = nullptr);

// Applies one "dotted.key=value" override to a parsed YAML tree, creating
// intermediate maps; the value is parsed as YAML, so flow maps such as
// "{type: ring, bidirectional: true}" work. Throws Error on a malformed
// assignment or when the path runs through a non-map node.
void apply_override(YAML::Node& root, const std::string& assignment);

// The line (1-based) where a second YAML document starts in `text` (a second
// '---', or content after '...'), or 0. Read from the text because
// yaml-cpp's LoadAll loops forever on some inputs (e.g. ",").
int second_yaml_document_line(const std::string& text);

}  // namespace photonsim
