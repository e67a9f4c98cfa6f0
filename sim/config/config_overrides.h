#pragma once
// Contract: --set overrides: "dotted.key=value" split and checked, and how an
// assignment is quoted back in messages (long values cut to ~80 characters).
// apply_override (config_loader.h) writes one into a parsed tree.
#include <string>
#include <utility>

namespace photonsim {

// A key whose value came from --set rather than from the file.
struct Override {
  std::string key;         // dotted path
  std::string assignment;  // the whole "key=value" text, quoted back in messages
};

std::string shown_assignment(const std::string& assignment);
// Splits "key=value"; the key is trimmed and must be a well-formed dotted path.
std::pair<std::string, std::string> split_assignment(const std::string& assignment);

}  // namespace photonsim
