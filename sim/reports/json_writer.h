#pragma once
// Contract: writes one JSON document in the layout every report prints. A
// container opened with Layout::lines puts each member on its own line,
// indented two spaces per level ("{\n  \"a\": 1,\n  \"b\": 2\n}"); one opened
// with Layout::inline_ keeps its members on one line ("{\"a\": 1, \"b\": 2}").
// Keys and strings go through json_string; numbers given as text (a report's
// fixed-decimal formatting) are written as they are. text() requires every
// container closed and ends the document with a newline. Misuse (a value
// without a key inside an object, a close that does not match) throws
// std::logic_error: it is a bug in the report, never bad input.
#include <cstdint>
#include <string>
#include <vector>

namespace photonsim {

class JsonWriter {
 public:
  enum class Layout { lines, inline_ };

  JsonWriter& begin_object(Layout layout = Layout::lines);
  JsonWriter& end_object();
  JsonWriter& begin_array(Layout layout = Layout::lines);
  JsonWriter& end_array();

  JsonWriter& key(const std::string& name);
  JsonWriter& string(const std::string& value);
  JsonWriter& integer(int64_t value);
  JsonWriter& boolean(bool value);
  JsonWriter& null();
  JsonWriter& number(const std::string& formatted);

  // key(name) followed by the value.
  JsonWriter& field(const std::string& name, const std::string& value) { return key(name).string(value); }
  JsonWriter& field(const std::string& name, const char* value) { return key(name).string(value); }
  JsonWriter& field(const std::string& name, int64_t value) { return key(name).integer(value); }
  JsonWriter& field(const std::string& name, int value) { return key(name).integer(value); }
  JsonWriter& field(const std::string& name, uint64_t value);
  JsonWriter& field(const std::string& name, bool value) { return key(name).boolean(value); }

  std::string text() const;

 private:
  struct Container {
    Layout layout;
    bool is_object;
    bool empty;
  };

  JsonWriter& scalar(const std::string& json);
  void start_member();
  void start_value();
  void open(char bracket, Layout layout, bool is_object);
  void close(char bracket, bool is_object);

  std::string out_;
  std::vector<Container> open_;
  bool key_pending_ = false;
  bool document_done_ = false;
};

}  // namespace photonsim
