#pragma once
// Contract: the fast way through the lines of a large graph file. yaml-cpp
// takes some 40 us per node line such as
//   - {name: n1, type: compute, gpus: ["0-3", 8], duration: 1us, after: [n0]}
// (its scanner matches every character against regular expressions); this
// reads such a line in a strict subset of YAML and builds, with yaml-cpp's own
// node API, the node yaml-cpp's parser builds for it (the same map, keys,
// scalars, lists and order; duplicate keys kept), only without marks. The
// subset: "- " and one flow map on the line; keys plain scalars, values plain
// or double-quoted scalars or flat flow lists of them; single spaces or runs
// of them as separators, ": " after each key; optionally a comment after
// whitespace. A plain scalar is ASCII letters, digits and _ . - / + > < = ( )
// not starting with - or any other indicator, and never null ~ Null NULL;
// a quoted one printable ASCII without \ or ". Anything else (tabs, escapes,
// anchors, tags, nested maps, trailing commas, ...) gives nothing: the caller
// lets yaml-cpp read it.
#include <optional>
#include <string_view>

#include <yaml-cpp/yaml.h>

namespace photonsim {

// `line` without its line break ("\r" allowed at its end).
std::optional<YAML::Node> flow_item(std::string_view line);

}  // namespace photonsim
