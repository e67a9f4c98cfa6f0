#include "schedules/msccl/xml_element.h"

#include <cstdint>

#include "core/error.h"

namespace photonsim {

const std::string* XmlElement::attribute(std::string_view key) const {
  for (const auto& [attribute_name, value] : attributes) {
    if (attribute_name == key) return &value;
  }
  return nullptr;
}

namespace {

bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

class XmlReader {
 public:
  XmlReader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  XmlElement read() {
    // Elements open on the stack; each closed one moves into its parent.
    std::vector<XmlElement> open;
    bool have_root = false;
    XmlElement root;
    while (true) {
      skip_text(!open.empty());
      if (at_end()) break;
      if (starts_with("<!--")) {
        skip_past("-->", "a comment that never ends");
      } else if (starts_with("<?")) {
        skip_past("?>", "a processing instruction that never ends");
      } else if (starts_with("<![CDATA[")) {
        fail("CDATA sections are not read in algorithm files");
      } else if (starts_with("<!DOCTYPE")) {
        if (have_root || !open.empty()) fail("a DOCTYPE after the root element");
        skip_doctype();
      } else if (starts_with("</")) {
        pos_ += 2;
        const std::string name = read_name("an end tag");
        skip_spaces();
        expect('>', "'>' closing the end tag </" + name);
        if (open.empty()) fail("the end tag </" + name + "> closes nothing");
        if (open.back().name != name)
          fail("the end tag </" + name + "> closes <" + open.back().name + "> of line " +
               std::to_string(open.back().line));
        XmlElement done = std::move(open.back());
        open.pop_back();
        if (open.empty()) {
          root = std::move(done);
          have_root = true;
        } else {
          open.back().children.push_back(std::move(done));
        }
      } else if (starts_with("<")) {
        if (have_root) fail("content after the root element <" + root.name + ">");
        XmlElement element;
        element.line = line_;
        ++pos_;
        element.name = read_name("an element");
        const bool closed = read_attributes(element);
        if (closed) {
          if (open.empty()) {
            root = std::move(element);
            have_root = true;
          } else {
            open.back().children.push_back(std::move(element));
          }
        } else {
          if (static_cast<int>(open.size()) >= kMaxXmlDepth)
            fail("elements nested deeper than " + std::to_string(kMaxXmlDepth));
          open.push_back(std::move(element));
        }
      } else {
        fail("text outside the root element");
      }
    }
    if (!open.empty())
      fail("the file ends inside <" + open.back().name + "> of line " + std::to_string(open.back().line));
    if (!have_root) fail("no root element (an empty file?)");
    return root;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  bool starts_with(std::string_view s) const { return text_.substr(pos_).starts_with(s); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  void advance() {
    if (text_[pos_] == '\n') ++line_;
    ++pos_;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(source_ + ":" + std::to_string(line_) + ": " + what);
  }

  void skip_spaces() {
    while (!at_end() && is_space(peek())) advance();
  }

  // Text between elements is ignored; outside the root only spaces may appear.
  void skip_text(bool inside_root) {
    while (!at_end() && peek() != '<') {
      if (!inside_root && !is_space(peek())) fail("text outside the root element");
      advance();
    }
  }

  void skip_past(std::string_view end, const std::string& unterminated) {
    const size_t found = text_.find(end, pos_);
    if (found == std::string_view::npos) fail(unterminated);
    while (pos_ < found + end.size()) advance();
  }

  // <!DOCTYPE name ...> without an internal subset: entities declared there
  // would change what attributes mean, so they are refused.
  void skip_doctype() {
    while (!at_end() && peek() != '>') {
      if (peek() == '[') fail("a DOCTYPE with declarations is not read in algorithm files");
      advance();
    }
    expect('>', "'>' closing the DOCTYPE");
  }

  void expect(char c, const std::string& what) {
    if (peek() != c) fail("expected " + what + (at_end() ? " (the file ends)" : ""));
    advance();
  }

  std::string read_name(const std::string& what) {
    if (!is_name_start(peek())) fail("expected the name of " + what);
    const size_t start = pos_;
    while (!at_end() && is_name_char(peek())) advance();
    return std::string(text_.substr(start, pos_ - start));
  }

  // After the element name: attributes up to '>' (open) or '/>' (closed).
  bool read_attributes(XmlElement& element) {
    while (true) {
      const bool spaced = !at_end() && is_space(peek());
      skip_spaces();
      if (starts_with("/>")) {
        pos_ += 2;
        return true;
      }
      if (peek() == '>') {
        advance();
        return false;
      }
      if (at_end()) fail("the file ends inside the tag <" + element.name + ">");
      if (!spaced) fail("expected a space, '>' or '/>' in the tag <" + element.name + ">");
      const std::string name = read_name("an attribute of <" + element.name + ">");
      if (element.attribute(name)) fail("<" + element.name + "> has the attribute '" + name + "' twice");
      skip_spaces();
      expect('=', "'=' after the attribute '" + name + "' of <" + element.name + ">");
      skip_spaces();
      const char quote = peek();
      if (quote != '"' && quote != '\'')
        fail("the value of the attribute '" + name + "' of <" + element.name + "> must be quoted");
      advance();
      std::string value;
      while (true) {
        if (at_end()) fail("the value of the attribute '" + name + "' never ends");
        const char c = peek();
        if (c == quote) break;
        if (c == '<') fail("'<' inside the value of the attribute '" + name + "'");
        if (c == '&') {
          read_reference(value);
          continue;
        }
        value.push_back(c);
        advance();
      }
      advance();
      element.attributes.emplace_back(name, std::move(value));
    }
  }

  void read_reference(std::string& out) {
    const size_t end = text_.find(';', pos_);
    if (end == std::string_view::npos || end - pos_ > 12) fail("an '&' that starts no entity");
    const std::string_view entity = text_.substr(pos_ + 1, end - pos_ - 1);
    if (entity == "lt") {
      out.push_back('<');
    } else if (entity == "gt") {
      out.push_back('>');
    } else if (entity == "amp") {
      out.push_back('&');
    } else if (entity == "quot") {
      out.push_back('"');
    } else if (entity == "apos") {
      out.push_back('\'');
    } else if (entity.starts_with("#")) {
      append_code_point(entity.substr(1), out);
    } else {
      fail("unknown entity '&" + std::string(entity) + ";'");
    }
    pos_ = end + 1;
  }

  void append_code_point(std::string_view digits, std::string& out) const {
    const bool hex = digits.starts_with("x");
    if (hex) digits.remove_prefix(1);
    if (digits.empty()) fail("an empty character reference");
    uint32_t code = 0;
    for (char c : digits) {
      uint32_t d = 0;
      if (c >= '0' && c <= '9') {
        d = static_cast<uint32_t>(c - '0');
      } else if (hex && c >= 'a' && c <= 'f') {
        d = static_cast<uint32_t>(c - 'a' + 10);
      } else if (hex && c >= 'A' && c <= 'F') {
        d = static_cast<uint32_t>(c - 'A' + 10);
      } else {
        fail("a malformed character reference");
      }
      code = code * (hex ? 16 : 10) + d;
      if (code > 0x10FFFF) fail("a character reference beyond U+10FFFF");
    }
    if (code == 0) fail("a character reference to U+0000");
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  std::string_view text_;
  const std::string& source_;
  size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

XmlElement parse_xml(std::string_view text, const std::string& source) { return XmlReader(text, source).read(); }

}  // namespace photonsim
