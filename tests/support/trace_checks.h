#pragma once
// Contract (tests): checks a parsed document against the Chrome trace event
// format as photonsim writes it (the JSON Object Format) and as Perfetto's
// JSON importer reads it: a top-level object with a traceEvents array and an
// otherData object, and no displayTimeUnit (older trace processors read ts
// and dur in that unit); every event an object with a string "name",
// "ph" "X" or "M", integer "pid" and "tid"; X events with numbers ts >= 0 and
// dur >= 0 in whole nanoseconds (Perfetto keeps nanoseconds, rounding ts and
// dur each on its own: finer values could make spans that nest in
// picoseconds partly overlap there); M events naming a process or thread
// (args.name) or ordering one (args.sort_index); and on each (pid, tid) the
// X spans either nest or are disjoint, never partly overlap (Perfetto moves
// such a span off its thread and reports it); a tid under one pid only.
// Returns every problem found (empty: valid), each naming the event's index.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/json_value.h"

namespace photonsim::testing_support {

// A non-negative decimal number of microseconds as integer picoseconds, or
// nullopt when it is negative, has an exponent or finer than a picosecond.
inline std::optional<int64_t> micros_to_ps(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos) return std::nullopt;
  const size_t dot = text.find('.');
  const std::string whole = text.substr(0, dot);
  std::string fraction = dot == std::string::npos ? "" : text.substr(dot + 1);
  if (whole.empty() || whole.size() > 12 || fraction.size() > 6) return std::nullopt;
  fraction.resize(6, '0');
  return std::stoll(whole) * 1'000'000 + std::stoll(fraction);
}

struct TraceSpan {
  int64_t begin = 0;
  int64_t end = 0;
  size_t index = 0;
};

inline std::vector<std::string> validate_trace(const JsonValue& doc) {
  using Kind = JsonValue::Kind;
  std::vector<std::string> problems;
  if (!doc.is(Kind::object)) return {"the document is not an object"};
  const JsonValue* events = doc.find("traceEvents");
  if (events == nullptr || !events->is(Kind::array)) return {"no traceEvents array"};
  const JsonValue* other = doc.find("otherData");
  if (other == nullptr || !other->is(Kind::object)) problems.push_back("no otherData object");
  if (doc.find("displayTimeUnit") != nullptr) {
    problems.push_back("displayTimeUnit is set (older trace processors read ts and dur in its unit)");
  }
  std::map<std::pair<int64_t, int64_t>, std::vector<TraceSpan>> threads;
  std::map<int64_t, int64_t> pid_of_tid;  // Perfetto keys a thread by its tid alone
  for (size_t i = 0; i < events->items.size(); ++i) {
    const JsonValue& e = events->items[i];
    const std::string at = "event " + std::to_string(i) + ": ";
    if (!e.is(Kind::object)) {
      problems.push_back(at + "not an object");
      continue;
    }
    const JsonValue* ph = e.find("ph");
    const JsonValue* name = e.find("name");
    const JsonValue* pid = e.find("pid");
    const JsonValue* tid = e.find("tid");
    if (name == nullptr || !name->is(Kind::string)) problems.push_back(at + "no string name");
    if (pid == nullptr || !pid->is_integer() || tid == nullptr || !tid->is_integer()) {
      problems.push_back(at + "pid and tid are not both integers");
      continue;
    }
    if (ph == nullptr || !ph->is(Kind::string) || (ph->text != "X" && ph->text != "M")) {
      problems.push_back(at + "ph is not \"X\" or \"M\"");
      continue;
    }
    const auto [owner, first] = pid_of_tid.try_emplace(tid->integer(), pid->integer());
    if (!first && owner->second != pid->integer()) {
      problems.push_back(at + "tid " + std::to_string(tid->integer()) + " is under pid " +
                         std::to_string(owner->second) + " already (Perfetto would start a new thread for it)");
    }
    const JsonValue* args = e.find("args");
    if (ph->text == "M") {
      const std::string what = name != nullptr ? name->text : "";
      const bool naming = what == "process_name" || what == "thread_name";
      const bool ordering = what == "process_sort_index" || what == "thread_sort_index";
      if (!naming && !ordering) {
        problems.push_back(at + "unknown metadata '" + what + "'");
      } else if (args == nullptr || !args->is(Kind::object)) {
        problems.push_back(at + "metadata without args");
      } else if (naming && (args->find("name") == nullptr || !args->find("name")->is(Kind::string))) {
        problems.push_back(at + what + " without a string args.name");
      } else if (ordering && (args->find("sort_index") == nullptr || !args->find("sort_index")->is_integer())) {
        problems.push_back(at + what + " without an integer args.sort_index");
      }
      continue;
    }
    const JsonValue* ts = e.find("ts");
    const JsonValue* dur = e.find("dur");
    if (ts == nullptr || !ts->is(Kind::number) || dur == nullptr || !dur->is(Kind::number)) {
      problems.push_back(at + "X event without numbers ts and dur");
      continue;
    }
    const std::optional<int64_t> begin = micros_to_ps(ts->text), length = micros_to_ps(dur->text);
    if (!begin || !length) {
      problems.push_back(at + "ts " + ts->text + " or dur " + dur->text +
                         " is negative or not a plain decimal of whole picoseconds");
      continue;
    }
    if (*begin % 1000 != 0 || *length % 1000 != 0) {
      problems.push_back(at + "ts " + ts->text + " or dur " + dur->text + " is finer than a nanosecond");
    }
    if (args != nullptr && !args->is(Kind::object)) problems.push_back(at + "args is not an object");
    threads[{pid->integer(), tid->integer()}].push_back(TraceSpan{*begin, *begin + *length, i});
  }
  for (auto& [thread, spans] : threads) {
    // Longer first at the same begin: a parent before its children.
    std::stable_sort(spans.begin(), spans.end(), [](const TraceSpan& a, const TraceSpan& b) {
      return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
    });
    std::vector<TraceSpan> open;
    for (const TraceSpan& s : spans) {
      while (!open.empty() && open.back().end <= s.begin) open.pop_back();
      if (!open.empty() && s.end > open.back().end) {
        problems.push_back("events " + std::to_string(open.back().index) + " and " + std::to_string(s.index) +
                           " on pid " + std::to_string(thread.first) + " tid " + std::to_string(thread.second) +
                           " partly overlap");
      }
      open.push_back(s);
    }
  }
  return problems;
}

}  // namespace photonsim::testing_support
