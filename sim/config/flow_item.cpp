#include "sim/config/flow_item.h"

#include <string>

namespace photonsim {

namespace {

bool letter_or_digit(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

bool plain_first(char c) { return letter_or_digit(c) || c == '_' || c == '.' || c == '/' || c == '('; }

bool plain_rest(char c) {
  return letter_or_digit(c) || c == '_' || c == '.' || c == '-' || c == '/' || c == '+' || c == '>' || c == '<' ||
         c == '=' || c == '(' || c == ')';
}

class Line {
 public:
  explicit Line(std::string_view text) : text_(text) {
    if (!text_.empty() && text_.back() == '\r') text_.remove_suffix(1);
  }

  std::optional<YAML::Node> item() {
    if (!take('-') || peek() != ' ') return std::nullopt;
    spaces();
    if (!take('{')) return std::nullopt;
    YAML::Node map(YAML::NodeType::Map);
    spaces();
    for (;;) {
      std::optional<std::string> key = plain();
      if (!key || !take(':') || peek() != ' ') return std::nullopt;
      spaces();
      std::optional<YAML::Node> value = peek() == '[' ? list() : scalar();
      if (!value) return std::nullopt;
      map.force_insert(*key, *value);
      spaces();
      if (take('}')) break;
      if (!take(',')) return std::nullopt;
      spaces();
    }
    // Nothing after the map but blanks and, after a blank, a comment.
    const size_t end = at_;
    spaces();
    if (at_ == text_.size()) return map;
    if (at_ > end && peek() == '#') return map;
    return std::nullopt;
  }

 private:
  char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
  bool take(char c) {
    if (peek() != c) return false;
    ++at_;
    return true;
  }
  void spaces() {
    while (peek() == ' ') ++at_;
  }

  // A plain scalar that yaml-cpp reads as that text (never as null).
  std::optional<std::string> plain() {
    const size_t begin = at_;
    if (!plain_first(peek())) return std::nullopt;
    while (plain_rest(peek())) ++at_;
    const std::string_view text = text_.substr(begin, at_ - begin);
    if (text == "null" || text == "Null" || text == "NULL") return std::nullopt;
    return std::string(text);
  }

  std::optional<std::string> quoted() {
    if (!take('"')) return std::nullopt;
    const size_t begin = at_;
    while (peek() >= ' ' && peek() <= '~' && peek() != '"' && peek() != '\\') ++at_;
    if (!take('"')) return std::nullopt;
    return std::string(text_.substr(begin, at_ - 1 - begin));
  }

  // A scalar, ended by a blank or the collection's punctuation.
  std::optional<YAML::Node> scalar() {
    const std::optional<std::string> text = peek() == '"' ? quoted() : plain();
    if (!text) return std::nullopt;
    const char next = peek();
    if (next != ' ' && next != ',' && next != '}' && next != ']') return std::nullopt;
    return YAML::Node(*text);
  }

  // [a, "b", c], no trailing comma, no nesting.
  std::optional<YAML::Node> list() {
    if (!take('[')) return std::nullopt;
    YAML::Node seq(YAML::NodeType::Sequence);
    spaces();
    if (take(']')) return seq;
    for (;;) {
      std::optional<YAML::Node> item = scalar();
      if (!item) return std::nullopt;
      seq.push_back(*item);
      spaces();
      if (take(']')) return seq;
      if (!take(',')) return std::nullopt;
      spaces();
    }
  }

  std::string_view text_;
  size_t at_ = 0;
};

}  // namespace

std::optional<YAML::Node> flow_item(std::string_view line) { return Line(line).item(); }

}  // namespace photonsim
