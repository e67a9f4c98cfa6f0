#pragma once
// Contract: one declared parameter of a named component (algorithm, planner,
// topology generator, joint synthesizer), stated beside the component's code.
// ComponentParams validates the given values against these declarations
// (unknown keys, integers and their bounds, booleans, choices) and supplies
// `fixed_default` when a key is absent; `photonsim list` prints describe().
// A default that depends on the fabric (e.g. "factored from n") is only
// described (`computed_default`): the component decides it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace photonsim {

enum class ParameterType { integer, boolean, choice, integers, dimensions, edges, text };

struct ParameterSpec {
  std::string name;
  ParameterType type = ParameterType::text;
  std::string meaning;                       // one phrase: what it changes
  std::optional<std::string> fixed_default;  // the value used when absent
  std::string computed_default;              // described only: "fabric.ports", "factored from n"
  std::vector<std::string> choices;          // ParameterType::choice
  std::optional<int64_t> minimum;            // ParameterType::integer
  std::optional<int64_t> maximum;

  static ParameterSpec integer(std::string name, std::optional<int64_t> fixed_default, std::string meaning,
                               std::optional<int64_t> minimum = std::nullopt,
                               std::optional<int64_t> maximum = std::nullopt);
  static ParameterSpec boolean(std::string name, bool fixed_default, std::string meaning);
  // The first choice is the default.
  static ParameterSpec choice(std::string name, std::vector<std::string> choices, std::string meaning);
  // Any type whose default the component works out from the fabric, or none (required).
  static ParameterSpec computed(std::string name, ParameterType type, std::string computed_default,
                                std::string meaning);

  bool required() const { return !fixed_default && computed_default.empty(); }
  // "radix: integer >= 2, default 2 - the digit base".
  std::string describe() const;
};

const char* to_string(ParameterType type);
// Every parameter's describe(), joined by "; "; empty for none.
std::string describe(const std::vector<ParameterSpec>& parameters);

}  // namespace photonsim
