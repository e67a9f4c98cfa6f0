#include "topology/component_params.h"

#include <cctype>
#include <charconv>

#include "core/error.h"

namespace photonsim {

namespace {

// Every integer in `text` in order, with the bracket depth at which it sits.
struct Token {
  int64_t value;
  int depth;
};

bool scan_integers(const std::string& text, std::vector<Token>& out, std::string& why) {
  int depth = 0;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '[') {
      ++depth;
      ++i;
    } else if (c == ']') {
      if (--depth < 0) {
        why = "unbalanced ']'";
        return false;
      }
      ++i;
    } else if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      const auto result = std::from_chars(text.data() + i, text.data() + text.size(), v);
      if (result.ec != std::errc()) {
        why = "'" + text.substr(i) + "' is not an integer";
        return false;
      }
      out.push_back({v, depth});
      i = static_cast<size_t>(result.ptr - text.data());
    } else {
      why = "unexpected '" + std::string(1, c) + "'";
      return false;
    }
  }
  if (depth != 0) {
    why = "unbalanced '['";
    return false;
  }
  return true;
}

}  // namespace

ComponentParams::ComponentParams(std::string type, std::map<std::string, std::string> values,
                                 const std::vector<std::string>& allowed, std::string kind)
    : type_(std::move(type)), kind_(std::move(kind)), values_(std::move(values)) {
  reject_undeclared(allowed);
}

ComponentParams::ComponentParams(std::string type, std::map<std::string, std::string> values,
                                 const std::vector<ParameterSpec>& declared, std::string kind)
    : type_(std::move(type)), kind_(std::move(kind)), values_(std::move(values)) {
  std::vector<std::string> names;
  for (const ParameterSpec& spec : declared) names.push_back(spec.name);
  reject_undeclared(names);
  for (const ParameterSpec& spec : declared) {
    if (has(spec.name)) {
      check_declared(spec);
    } else if (spec.fixed_default) {
      values_[spec.name] = *spec.fixed_default;
    }
  }
}

void ComponentParams::reject_undeclared(const std::vector<std::string>& declared) const {
  for (const auto& [key, value] : values_) {
    bool known = false;
    for (const std::string& a : declared) known = known || a == key;
    if (!known) {
      std::string valid;
      for (const std::string& a : declared) valid += (valid.empty() ? "" : ", ") + a;
      throw Error(kind_ + " '" + type_ + "' has no parameter '" + key +
                  "' (valid: " + (valid.empty() ? "none" : valid) + ")");
    }
  }
}

void ComponentParams::check_declared(const ParameterSpec& spec) const {
  const std::string& key = spec.name;
  switch (spec.type) {
    case ParameterType::integer: {
      const int64_t v = integer(key);
      const bool low = spec.minimum && v < *spec.minimum;
      const bool high = spec.maximum && v > *spec.maximum;
      if (!low && !high) return;
      if (spec.minimum && spec.maximum) {
        fail(key, "must be in " + std::to_string(*spec.minimum) + ".." + std::to_string(*spec.maximum) + ", got " +
                      std::to_string(v));
      }
      if (low) fail(key, "must be >= " + std::to_string(*spec.minimum) + ", got " + std::to_string(v));
      fail(key, "must be <= " + std::to_string(*spec.maximum) + ", got " + std::to_string(v));
    }
    case ParameterType::boolean:
      boolean(key, false);
      return;
    case ParameterType::choice: {
      const std::string& v = raw(key);
      std::string valid;
      for (size_t i = 0; i < spec.choices.size(); ++i) {
        if (spec.choices[i] == v) return;
        valid += (i == 0 ? "" : i + 1 == spec.choices.size() ? " or " : ", ") + spec.choices[i];
      }
      fail(key, "must be " + valid + ", got " + quoted(v));
    }
    case ParameterType::integers:
      integers(key);
      return;
    case ParameterType::dimensions:
      dimensions(key);
      return;
    case ParameterType::edges:
      edges(key);
      return;
    case ParameterType::text:
      return;
  }
}

void ComponentParams::fail(const std::string& key, const std::string& why) const {
  throw Error(kind_ + " '" + type_ + "' parameter '" + key + "': " + why);
}

void ComponentParams::fail(const std::string& why) const { throw Error(kind_ + " '" + type_ + "': " + why); }

const std::string& ComponentParams::raw(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) fail(key, "is required");
  return it->second;
}

std::string ComponentParams::text(const std::string& key) const { return raw(key); }

int64_t ComponentParams::integer(const std::string& key, std::optional<int64_t> fallback) const {
  if (!has(key)) {
    if (fallback) return *fallback;
    fail(key, "is required");
  }
  const std::string& s = raw(key);
  int64_t v = 0;
  const auto result = std::from_chars(s.data(), s.data() + s.size(), v);
  if (result.ec != std::errc() || result.ptr != s.data() + s.size()) {
    fail(key, "must be an integer, got '" + s + "'");
  }
  return v;
}

bool ComponentParams::boolean(const std::string& key, bool fallback) const {
  if (!has(key)) return fallback;
  const std::string& s = raw(key);
  if (s == "true") return true;
  if (s == "false") return false;
  fail(key, "must be true or false, got '" + s + "'");
}

bool ComponentParams::boolean(const std::string& key) const {
  raw(key);  // "is required" when absent
  return boolean(key, false);
}

std::vector<int64_t> ComponentParams::integers(const std::string& key) const {
  std::vector<Token> tokens;
  std::string why;
  if (!scan_integers(raw(key), tokens, why)) fail(key, why);
  std::vector<int64_t> out;
  for (const Token& t : tokens) {
    if (t.depth > 1) fail(key, "must be a flat list of integers, got '" + raw(key) + "'");
    out.push_back(t.value);
  }
  return out;
}

std::vector<int> ComponentParams::dimensions(const std::string& key) const {
  std::string s = raw(key);
  for (char& c : s) {
    if (c == 'x' || c == 'X') c = ',';
  }
  std::vector<Token> tokens;
  std::string why;
  if (!scan_integers(s, tokens, why)) fail(key, why + " (expected e.g. 4x4 or 4x4x2)");
  std::vector<int> dims;
  for (const Token& t : tokens) {
    if (t.value < 1 || t.value > (1 << 24)) fail(key, "every dimension must be >= 1, got '" + raw(key) + "'");
    dims.push_back(static_cast<int>(t.value));
  }
  if (dims.size() < 2 || dims.size() > 3) {
    fail(key, "needs 2 or 3 dimensions (AxB or AxBxC), got '" + raw(key) + "'");
  }
  return dims;
}

std::vector<Edge> ComponentParams::edges(const std::string& key) const {
  // Strictly [[src, dst], ...]: nesting, flat lists and triples are errors, not flattened.
  const std::string& text = raw(key);
  const std::string shown = text.size() > 80 ? text.substr(0, 77) + "..." : text;
  const auto bad = [&](const std::string& why) {
    fail(key, "must be a list of [src, dst] pairs like [[0, 1], [1, 2]]: " + why + " in '" + shown + "'");
  };
  size_t i = 0;
  const auto skip_space = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  const auto expect = [&](char c) {
    skip_space();
    if (i >= text.size() || text[i] != c) {
      bad(std::string("expected '") + c + "' at character " + std::to_string(i + 1));
    }
    ++i;
  };
  const auto node = [&]() -> Node {
    skip_space();
    int64_t v = 0;
    const auto result = std::from_chars(text.data() + i, text.data() + text.size(), v);
    if (result.ec != std::errc()) bad("expected a node id at character " + std::to_string(i + 1));
    i = static_cast<size_t>(result.ptr - text.data());
    if (v < 0) fail(key, "node ids must be >= 0");
    if (v > UINT32_MAX) fail(key, "node id too large");
    return static_cast<Node>(v);
  };
  std::vector<Edge> out;
  expect('[');
  skip_space();
  if (i < text.size() && text[i] == ']') {
    ++i;
  } else {
    for (;;) {
      expect('[');
      const Node src = node();
      expect(',');
      const Node dst = node();
      skip_space();
      if (i < text.size() && text[i] == ',') bad("a circuit has more than two nodes (not a pair)");
      expect(']');
      out.push_back({src, dst});
      skip_space();
      if (i < text.size() && text[i] == ',') {
        ++i;
        continue;
      }
      expect(']');
      break;
    }
  }
  skip_space();
  if (i != text.size()) bad("unexpected text after the list at character " + std::to_string(i + 1));
  return out;
}

}  // namespace photonsim
