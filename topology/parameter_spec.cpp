#include "topology/parameter_spec.h"

namespace photonsim {

ParameterSpec ParameterSpec::integer(std::string name, std::optional<int64_t> fixed_default, std::string meaning,
                                     std::optional<int64_t> minimum, std::optional<int64_t> maximum) {
  ParameterSpec p;
  p.name = std::move(name);
  p.type = ParameterType::integer;
  p.meaning = std::move(meaning);
  if (fixed_default) p.fixed_default = std::to_string(*fixed_default);
  p.minimum = minimum;
  p.maximum = maximum;
  return p;
}

ParameterSpec ParameterSpec::boolean(std::string name, bool fixed_default, std::string meaning) {
  ParameterSpec p;
  p.name = std::move(name);
  p.type = ParameterType::boolean;
  p.meaning = std::move(meaning);
  p.fixed_default = fixed_default ? "true" : "false";
  return p;
}

ParameterSpec ParameterSpec::choice(std::string name, std::vector<std::string> choices, std::string meaning) {
  ParameterSpec p;
  p.name = std::move(name);
  p.type = ParameterType::choice;
  p.meaning = std::move(meaning);
  p.fixed_default = choices.front();
  p.choices = std::move(choices);
  return p;
}

ParameterSpec ParameterSpec::computed(std::string name, ParameterType type, std::string computed_default,
                                      std::string meaning) {
  ParameterSpec p;
  p.name = std::move(name);
  p.type = type;
  p.meaning = std::move(meaning);
  p.computed_default = std::move(computed_default);
  return p;
}

const char* to_string(ParameterType type) {
  switch (type) {
    case ParameterType::integer:
      return "integer";
    case ParameterType::boolean:
      return "true|false";
    case ParameterType::choice:
      return "choice";
    case ParameterType::integers:
      return "integer list";
    case ParameterType::dimensions:
      return "dimensions AxB[xC]";
    case ParameterType::edges:
      return "[[src, dst], ...]";
    case ParameterType::text:
      return "text";
  }
  return "text";
}

std::string ParameterSpec::describe() const {
  std::string out = name + ": ";
  if (type == ParameterType::choice) {
    for (size_t i = 0; i < choices.size(); ++i) out += (i ? "|" : "") + choices[i];
  } else {
    out += to_string(type);
  }
  if (minimum && maximum) {
    out += " in " + std::to_string(*minimum) + ".." + std::to_string(*maximum);
  } else if (minimum) {
    out += " >= " + std::to_string(*minimum);
  } else if (maximum) {
    out += " <= " + std::to_string(*maximum);
  }
  if (fixed_default) {
    out += ", default " + *fixed_default;
  } else if (!computed_default.empty()) {
    out += ", default: " + computed_default;
  } else {
    out += ", required";
  }
  if (!meaning.empty()) out += " - " + meaning;
  return out;
}

std::string describe(const std::vector<ParameterSpec>& parameters) {
  std::string out;
  for (const ParameterSpec& p : parameters) out += (out.empty() ? "" : "; ") + p.describe();
  return out;
}

}  // namespace photonsim
