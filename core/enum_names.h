#pragma once
// Contract: the one table of YAML names per enum (EnumName<E>[]), declared
// beside the enum; to_string, the config loader's choices, the Schedule
// reader and `photonsim list` all read the same table, so a new value is
// named in one place. name_of() of a value missing from its table is a
// logic error (std::logic_error), not a silent "?".
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace photonsim {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

template <class E, size_t N>
const char* name_of(const EnumName<E> (&table)[N], E value) {
  for (const EnumName<E>& entry : table) {
    if (entry.value == value) return entry.name;
  }
  throw std::logic_error("an enum value without a name in its table");
}

template <class E, size_t N>
std::optional<E> value_named(const EnumName<E> (&table)[N], std::string_view name) {
  for (const EnumName<E>& entry : table) {
    if (name == entry.name) return entry.value;
  }
  return std::nullopt;
}

// "a, b, c" (or with another separator).
template <class E, size_t N>
std::string names_of(const EnumName<E> (&table)[N], std::string_view separator = ", ") {
  std::string out;
  for (size_t i = 0; i < N; ++i) out += (i ? std::string(separator) : "") + table[i].name;
  return out;
}

}  // namespace photonsim
