#pragma once
// Contract: one builder per kind of key: a schema line (config_schema_keys.cpp)
// names the key, its spec field and, for bounded kinds, the range, once; the
// builder makes the ConfigKey whose default is read from the default-constructed
// spec, whose `allowed` text comes from the same range the parser checks, and
// whose `read` parses the value with the kind's parser (key_parsers.h) into the
// field. A new key of an existing kind is its spec field and one line.
#include <string>
#include <utility>

#include "sim/config/config_schema.h"
#include "sim/config/experiment_config.h"
#include "sim/config/key_parsers.h"

namespace photonsim {

// The spec a field belongs to, inside the experiment being read.
template <class Spec>
Spec& spec_in(ExperimentConfig& config);
template <>
inline ExperimentSpec& spec_in<ExperimentSpec>(ExperimentConfig& config) {
  return config;
}
template <>
inline ExperimentConfig& spec_in<ExperimentConfig>(ExperimentConfig& config) {
  return config;
}
template <>
inline FabricSpec& spec_in<FabricSpec>(ExperimentConfig& config) {
  return config.fabric;
}
// fabric.physical's reader makes the PhysicalSpec before its keys are read.
template <>
inline PhysicalSpec& spec_in<PhysicalSpec>(ExperimentConfig& config) {
  return *config.fabric.physical;
}
template <>
inline FailureSpec& spec_in<FailureSpec>(ExperimentConfig& config) {
  return config.fabric.failures;
}
// fabric.random_failures' reader makes the RandomFailures before its keys are read.
template <>
inline RandomFailures& spec_in<RandomFailures>(ExperimentConfig& config) {
  return *config.fabric.failures.random;
}
template <>
inline WorkloadSpec& spec_in<WorkloadSpec>(ExperimentConfig& config) {
  return config.workload;
}
template <>
inline SynthesisSpec& spec_in<SynthesisSpec>(ExperimentConfig& config) {
  return config.synthesis;
}

// A field's parse: `parse(value)` stored into `field` of its spec.
template <class Spec, class T, class Parse>
KeyRead store(T Spec::*field, Parse parse) {
  return [field, parse](ConfigReader&, const ConfigValue& value, ExperimentConfig& config) {
    spec_in<Spec>(config).*field = parse(value);
  };
}

// A bounded integer: min .. max (max = the type's largest: no upper bound).
template <class Spec, class T>
ConfigKey integer_key(std::string path, T Spec::*field, T min, T max, std::string unit, std::string doc) {
  ConfigKey key{
      std::move(path), "integer", std::move(unit), std::to_string(Spec{}.*field), integer_range_text(min, max),
      std::move(doc)};
  key.read = store(field, [min, max](const ConfigValue& value) { return read_integer<T>(value, min, max); });
  return key;
}

// A bounded real: min .. max.
template <class Spec>
ConfigKey real_key(std::string path, double Spec::*field, double min, double max, std::string unit, std::string doc) {
  ConfigKey key{std::move(path),           "real",        std::move(unit), real_text(Spec{}.*field),
                real_range_text(min, max), std::move(doc)};
  key.read = store(field, [min, max](const ConfigValue& value) { return read_real(value, min, max); });
  return key;
}

// One of an enum's names (core/enum_names.h tables); `rule` words the
// message's "one of: a, b" otherwise.
template <class Spec, class Enum, size_t N>
ConfigKey choice_key(std::string path, Enum Spec::*field, const EnumName<Enum> (&names)[N], std::string doc,
                     const char* rule = nullptr) {
  ConfigKey key{std::move(path), "choice", "", name_of(names, Spec{}.*field), choice_range_text(names), std::move(doc)};
  key.read = store(field, [&names, rule](const ConfigValue& value) { return read_choice(value, names, rule); });
  return key;
}

inline constexpr EnumName<bool> kBooleanNames[] = {{false, "false"}, {true, "true"}};
// workload.message_scope: per flow, or the per-GPU buffer split over the flows.
inline constexpr EnumName<bool> kMessageScopeNames[] = {{false, "flow"}, {true, "gpu"}};

template <class Spec>
ConfigKey boolean_key(std::string path, bool Spec::*field, std::string doc) {
  ConfigKey key = choice_key(std::move(path), field, kBooleanNames, std::move(doc));
  key.kind = "boolean";
  return key;
}

// A time >= 0.
template <class Spec>
ConfigKey time_key(std::string path, Time Spec::*field, std::string doc) {
  ConfigKey key{std::move(path), "time", "ps", format_time(Spec{}.*field), std::string(">= 0, ") + kTimeValues,
                std::move(doc)};
  key.read = store(field, [](const ConfigValue& value) { return read_time(value); });
  return key;
}

// A size > 0, or `zero_word` (a size of 0, the spec's default) when given.
template <class Spec>
ConfigKey size_key(std::string path, Bytes Spec::*field, const char* zero_word, std::string doc) {
  const std::string sizes = std::string("> 0, ") + kSizeValues;
  ConfigKey key{std::move(path),
                "size",
                "bytes",
                zero_word != nullptr ? zero_word : format_bytes(Spec{}.*field),
                zero_word != nullptr ? std::string(zero_word) + ", or " + sizes : sizes,
                std::move(doc)};
  key.read = store(field, [zero_word](const ConfigValue& value) { return read_size(value, zero_word); });
  return key;
}

// A size >= 0.
template <class Spec>
ConfigKey size_or_zero_key(std::string path, Bytes Spec::*field, std::string doc) {
  ConfigKey key{std::move(path), "size", "bytes", format_bytes(Spec{}.*field), std::string(">= 0, ") + kSizeValues,
                std::move(doc)};
  key.read = store(field, [](const ConfigValue& value) { return read_size_or_zero(value); });
  return key;
}

// A bandwidth > 0.
template <class Spec>
ConfigKey bandwidth_key(std::string path, Bandwidth Spec::*field, std::string doc) {
  ConfigKey key{std::move(path), "bandwidth", "bits/s", "required", std::string("> 0: ") + kBandwidthValues,
                std::move(doc)};
  key.read = store(field, [](const ConfigValue& value) { return read_bandwidth(value); });
  return key;
}

// ROWSxCOLS.
template <class Spec>
ConfigKey shape_key(std::string path, GridShape Spec::*field, std::string unit, std::string doc) {
  ConfigKey key{std::move(path), "shape", std::move(unit), "required", "ROWSxCOLS, each 1..4096", std::move(doc)};
  key.read = store(field, [](const ConfigValue& value) { return read_shape(value); });
  return key;
}

// Any single value.
template <class Spec>
ConfigKey text_key(std::string path, std::string Spec::*field, std::string allowed, std::string doc) {
  ConfigKey key{std::move(path), "text", "", "none", std::move(allowed), std::move(doc)};
  key.read = store(field, [](const ConfigValue& value) { return read_text(value); });
  return key;
}

// A map of keys of its own, read in schema order (`read`: a reader of its own).
inline ConfigKey section_key(std::string path, std::string default_value, std::string doc, KeyRead read = {}) {
  ConfigKey key{std::move(path), "section", "", std::move(default_value), "a map", std::move(doc)};
  key.read = std::move(read);
  return key;
}

// Adjustments of a built key.
inline ConfigKey required(ConfigKey key) {
  key.default_value = "required";
  return key;
}
inline ConfigKey with_default(ConfigKey key, std::string default_value) {
  key.default_value = std::move(default_value);
  return key;
}
inline ConfigKey with_allowed(ConfigKey key, std::string allowed) {
  key.allowed = std::move(allowed);
  return key;
}
inline ConfigKey with_check(ConfigKey key, KeyRead check) {
  key.check = std::move(check);
  return key;
}
// `photonsim list` lists the names the key takes under `catalog` (ConfigKey::catalog).
inline ConfigKey with_catalog(ConfigKey key, std::string catalog) {
  key.catalog = std::move(catalog);
  return key;
}

}  // namespace photonsim
