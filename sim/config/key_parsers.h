#pragma once
// Contract: one parser per kind of config value (text, bounded integer, real,
// enum, time, size, bandwidth, grid shape, list of names). Each takes a
// ConfigValue and returns the typed value or throws Error naming the key,
// where it was written, what is allowed and what was given
// ("exp.yaml:3: fabric.gpus must be an integer >= 2 (got '1')"). The schema
// (config_schema_keys.cpp) binds every scalar key to one of them, with its
// range stated once: the same bounds give the check and the `allowed` text
// of docs/config.md (the *_range_text functions).
#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/enum_names.h"
#include "core/error.h"
#include "core/spec/physical_spec.h"
#include "core/time.h"
#include "core/units.h"
#include "sim/config/config_value.h"

namespace photonsim {

std::string_view trim(std::string_view text);

// A single scalar (not a list, a map or nothing), as written.
std::string read_text(const ConfigValue& value);
// read_text, not blank.
std::string read_name(const ConfigValue& value);
// `after: [a, b]`, or one name.
std::vector<std::string> read_names(const ConfigValue& value);

// The same range as docs/config.md's `allowed` shows it: ">= 2", "1 .. 1024", "0 .. 2^64-1".
template <class T>
std::string integer_range_text(T min, T max) {
  if (std::is_unsigned_v<T> && max == std::numeric_limits<T>::max() && sizeof(T) == 8)
    return std::to_string(min) + " .. 2^64-1";
  if (max == std::numeric_limits<T>::max()) return ">= " + std::to_string(min);
  return std::to_string(min) + " .. " + std::to_string(max);
}

// A bounded integer; yaml-cpp's conversion rejects fractions, words and overflow.
template <class T>
T read_integer(const ConfigValue& value, T min, T max) {
  const std::string text = read_text(value);
  const std::string rule = max == std::numeric_limits<T>::max()
                               ? ">= " + std::to_string(min)
                               : "in " + std::to_string(min) + ".." + std::to_string(max);
  const std::string message = value.key + " must be an integer " + rule + " (got " + quoted(text) + ")";
  // Stream extraction would wrap "-1" around for unsigned types.
  if (std::is_unsigned_v<T> && trim(text).starts_with('-')) fail_at(value, message);
  T result{};
  try {
    result = value.value.as<T>();
  } catch (const YAML::BadConversion&) {
    fail_at(value, message);
  }
  if (result < min || result > max) fail_at(value, message);
  return result;
}

// "0.5" as a range bound prints it: the shortest text that reads back.
std::string real_text(double value);
std::string real_range_text(double min, double max);
double read_real(const ConfigValue& value, double min, double max);

// One of the names of an enum table. `rule` replaces "one of: a, b" in the message.
template <class Enum, size_t N>
Enum read_choice(const ConfigValue& value, const EnumName<Enum> (&names)[N], const char* rule = nullptr) {
  const std::string text = read_text(value);
  if (const auto option = value_named(names, text)) return *option;
  fail_at(value, value.key + " must be " + (rule != nullptr ? std::string(rule) : "one of: " + names_of(names)) +
                     " (got " + quoted(text) + ")");
}
template <class Enum, size_t N>
std::string choice_range_text(const EnumName<Enum> (&names)[N]) {
  return names_of(names, " | ");
}

// {NAME: VALUE, ...}: each NAME one of an enum's names (read_choice), each
// VALUE a name (read_name); `keys` and `values` say what they are in the
// message ("a collective", "an algorithm").
template <class Enum, size_t N>
std::map<Enum, std::string> read_choice_map(const ConfigValue& value, const EnumName<Enum> (&names)[N],
                                            const char* keys, const char* values) {
  if (!value.value.IsMap())
    fail_at(value, value.key + " must be a map from " + keys + " (" + names_of(names) + ") to " + values + " (got " +
                       describe(value.value) + ")");
  std::map<Enum, std::string> out;
  for (const auto& pair : value.value) {
    const Enum name = read_choice(ConfigValue{pair.first, value.key, value.where}, names);
    out[name] = read_name(ConfigValue{pair.second, value.key + "." + pair.first.Scalar(), value.where});
  }
  return out;
}

// Times, sizes and bandwidths: a number and a unit (core/units.h).
extern const char* const kTimeValues;  // "a time: a number and ps, ns, ..."
extern const char* const kSizeValues;
extern const char* const kBandwidthValues;
// A time >= 0.
Time read_time(const ConfigValue& value);
// A size > 0, or `zero_word` (when given) meaning Bytes(0).
Bytes read_size(const ConfigValue& value, const char* zero_word);
// A size >= 0.
Bytes read_size_or_zero(const ConfigValue& value);
// A bandwidth > 0.
Bandwidth read_bandwidth(const ConfigValue& value);

// Durations that may pass a Time's ~106 days (a mean time between failures,
// a watchdog's timeout): a number and ps, ns, us, ms, s, min, h or d, exact
// to the picosecond ("1300000h", "10min", "1.5s").
extern const char* const kDurationValues;
// A duration >= 0 that fits in a Time (at most 9223372036854775807 ps).
Time read_long_time(const ConfigValue& value);
// The same, > 0.
Time read_positive_long_time(const ConfigValue& value);
// A duration > 0 in seconds, of any length a unit can spell.
double read_duration_seconds(const ConfigValue& value);

// "AxB": rows x columns, each 1..4096.
GridShape read_shape(const ConfigValue& value);
std::string shape_text(const GridShape& shape);

// Digits only, at most INT_MAX.
std::optional<int> small_number(std::string_view digits);

// What read_gpu_list accepts, for the schema's `allowed`.
extern const char* const kGpuListValues;
// `gpus: ["0-3", 8, "16-31/4"]`: ids, inclusive ranges a-b and strided ranges
// a-b/s (a, a+s, ... up to b), each below `gpus`; one item alone is a list of
// one. `locate` gives an item's place from its mark (a graph file's lines).
std::vector<int> read_gpu_list(const ConfigValue& value, int gpus,
                               const std::function<std::string(const YAML::Mark&)>& locate);

}  // namespace photonsim
