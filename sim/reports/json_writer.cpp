#include "sim/reports/json_writer.h"

#include <stdexcept>

#include "sim/reports/json_text.h"

namespace photonsim {

// The separator and indentation before a container's next member.
void JsonWriter::start_member() {
  Container& c = open_.back();
  if (c.layout == Layout::lines) {
    out_ += c.empty ? "\n" : ",\n";
    out_.append(2 * open_.size(), ' ');
  } else if (!c.empty) {
    out_ += ", ";
  }
  c.empty = false;
}

// Where a value may go: the document itself, after a key, or as an array's member.
void JsonWriter::start_value() {
  if (open_.empty()) {
    if (document_done_) throw std::logic_error("JsonWriter: a second value after the document");
    return;
  }
  if (open_.back().is_object) {
    if (!key_pending_) throw std::logic_error("JsonWriter: a value in an object without its key");
    key_pending_ = false;
    return;
  }
  start_member();
}

void JsonWriter::open(char bracket, Layout layout, bool is_object) {
  start_value();
  out_ += bracket;
  open_.push_back({layout, is_object, true});
}

void JsonWriter::close(char bracket, bool is_object) {
  if (open_.empty() || open_.back().is_object != is_object || key_pending_) {
    throw std::logic_error("JsonWriter: a close that does not match the open container");
  }
  const Layout layout = open_.back().layout;
  open_.pop_back();
  if (layout == Layout::lines) {
    out_ += '\n';
    out_.append(2 * open_.size(), ' ');
  }
  out_ += bracket;
  if (open_.empty()) document_done_ = true;
}

JsonWriter& JsonWriter::begin_object(Layout layout) {
  open('{', layout, true);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  close('}', true);
  return *this;
}

JsonWriter& JsonWriter::begin_array(Layout layout) {
  open('[', layout, false);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  close(']', false);
  return *this;
}

JsonWriter& JsonWriter::key(const std::string& name) {
  if (open_.empty() || !open_.back().is_object || key_pending_) {
    throw std::logic_error("JsonWriter: key '" + name + "' outside an object or after another key");
  }
  start_member();
  out_ += json_string(name);
  out_ += ": ";
  key_pending_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(const std::string& value) { return scalar(json_string(value)); }

JsonWriter& JsonWriter::integer(int64_t value) { return scalar(std::to_string(value)); }

JsonWriter& JsonWriter::boolean(bool value) { return scalar(value ? "true" : "false"); }

JsonWriter& JsonWriter::null() { return scalar("null"); }

JsonWriter& JsonWriter::number(const std::string& formatted) { return scalar(formatted); }

JsonWriter& JsonWriter::field(const std::string& name, uint64_t value) {
  return key(name).scalar(std::to_string(value));
}

JsonWriter& JsonWriter::scalar(const std::string& json) {
  start_value();
  out_ += json;
  if (open_.empty()) document_done_ = true;
  return *this;
}

std::string JsonWriter::text() const {
  if (!open_.empty() || !document_done_) throw std::logic_error("JsonWriter: text() of an unfinished document");
  return out_ + "\n";
}

}  // namespace photonsim
