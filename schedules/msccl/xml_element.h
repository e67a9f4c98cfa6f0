#pragma once
// Contract: the small XML subset algorithm files use, read without a library
// so every error names its line: elements with attributes (double- or
// single-quoted, the five predefined entities and numeric character
// references), comments, an XML declaration, processing instructions and a
// DOCTYPE are read; text between elements is ignored; CDATA and entities
// declared in a DOCTYPE are refused. Nesting deeper than kMaxXmlDepth, a
// mismatched or missing end tag, a repeated attribute or anything after the
// root element is an Error "SOURCE:LINE: ...". Never recursive, so hostile
// input cannot exhaust the stack.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace photonsim {

inline constexpr int kMaxXmlDepth = 16;

struct XmlElement {
  std::string name;
  int line = 0;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<XmlElement> children;

  // The attribute's value, or nullptr when absent.
  const std::string* attribute(std::string_view key) const;
};

XmlElement parse_xml(std::string_view text, const std::string& source);

}  // namespace photonsim
