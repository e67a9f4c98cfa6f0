#pragma once
// Contract: the pieces every Chrome trace-event document photonsim writes is
// made of: exact decimal microseconds from integer picoseconds, lanes for
// spans that may overlap, and TraceEvents, which writes metadata ("ph": "M")
// and complete ("ph": "X") events into an open traceEvents array and counts
// them. A complete event's begin and end are rounded down to the nanosecond
// (Perfetto's resolution; it rounds ts and dur each on its own, so a finer
// ts or dur could make spans that nest in picoseconds partly overlap there):
// spans that nest or are disjoint in picoseconds still are.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/time.h"
#include "sim/reports/json_writer.h"

namespace photonsim {

// Integer picoseconds as exact decimal microseconds, from integers: a double
// would round 1 ps away in a run of a few seconds.
std::string micros(Time t);

// t rounded down to a whole nanosecond (t >= 0).
inline Time whole_nanoseconds(Time t) { return Time::ps(t.picoseconds() - t.picoseconds() % 1000); }

// Spans that may overlap (steps under fabric.sync = dataflow) go on lanes,
// one thread each, so spans on one thread always nest or are disjoint: each
// to the first lane free at its begin, in order of begin (longer first).
// Returns the lane of each span and sets `count`.
std::vector<size_t> lanes(const std::vector<std::pair<Time, Time>>& spans, size_t& count);

std::string lane_name(const std::string& name, size_t lane);

// Writes events into the traceEvents array and counts them.
class TraceEvents {
 public:
  explicit TraceEvents(JsonWriter& w) : w_(w) {}

  void name(const char* what, int64_t pid, int64_t tid, const std::string& name) {
    begin_meta(what, pid, tid);
    w_.key("args").begin_object(JsonWriter::Layout::inline_).field("name", name).end_object().end_object();
  }
  void sort_index(const char* what, int64_t pid, int64_t tid, int64_t index) {
    begin_meta(what, pid, tid);
    w_.key("args").begin_object(JsonWriter::Layout::inline_).field("sort_index", index).end_object().end_object();
  }
  // A complete event; `args` writes the members of its args object.
  template <class Args>
  void span(const std::string& name, const char* category, int64_t pid, int64_t tid, Time begin, Time end, Args args) {
    w_.begin_object(JsonWriter::Layout::inline_).field("name", name).field("cat", category).field("ph", "X");
    w_.field("pid", pid).field("tid", tid);
    const Time first = whole_nanoseconds(begin);
    w_.key("ts").number(micros(first)).key("dur").number(micros(whole_nanoseconds(end) - first));
    w_.key("args").begin_object(JsonWriter::Layout::inline_);
    args(w_);
    w_.end_object().end_object();
    ++count_;
  }
  size_t count() const { return count_; }

 private:
  void begin_meta(const char* what, int64_t pid, int64_t tid) {
    w_.begin_object(JsonWriter::Layout::inline_)
        .field("name", what)
        .field("ph", "M")
        .field("pid", pid)
        .field("tid", tid);
    ++count_;
  }

  JsonWriter& w_;
  size_t count_ = 0;
};

}  // namespace photonsim
