#pragma once
// Contract: the validated parameters of one named component (a topology
// generator or a collective algorithm). Construction rejects any key the
// component does not declare (listing the valid ones); accessors parse one
// value each and throw Error naming the component and the parameter
// ("topology 'torus' parameter 'dims': ...", "algorithm 'bruck' parameter 'radix': ..."). Values arrive as text
// from YAML or the CLI: integers, booleans (true/false), integer lists
// ("1,2,4" or "[1, 2, 4]"), dimensions ("4x4x2" or a list) and edge lists
// ("[[0, 1], [1, 2]]"). Built from ParameterSpecs, construction also checks
// every given value against its declared type, bounds or choices, and absent
// keys take their declared fixed default.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "topology/parameter_spec.h"
#include "topology/topology.h"

namespace photonsim {

class ComponentParams {
 public:
  // `kind` names the family in messages: "topology" or "algorithm".
  ComponentParams(std::string type, std::map<std::string, std::string> values, const std::vector<std::string>& allowed,
                  std::string kind = "topology");
  ComponentParams(std::string type, std::map<std::string, std::string> values,
                  const std::vector<ParameterSpec>& declared, std::string kind);

  const std::string& type() const { return type_; }
  bool has(const std::string& key) const { return values_.count(key) > 0; }
  // Without a default the parameter is required.
  int64_t integer(const std::string& key, std::optional<int64_t> fallback = std::nullopt) const;
  bool boolean(const std::string& key, bool fallback) const;
  bool boolean(const std::string& key) const;  // required, or its declared default
  std::vector<int64_t> integers(const std::string& key) const;
  std::vector<int> dimensions(const std::string& key) const;
  std::vector<Edge> edges(const std::string& key) const;
  std::string text(const std::string& key) const;

  [[noreturn]] void fail(const std::string& key, const std::string& why) const;
  [[noreturn]] void fail(const std::string& why) const;

 private:
  const std::string& raw(const std::string& key) const;
  void reject_undeclared(const std::vector<std::string>& declared) const;
  void check_declared(const ParameterSpec& spec) const;

  std::string type_;
  std::string kind_;
  std::map<std::string, std::string> values_;
};

}  // namespace photonsim
