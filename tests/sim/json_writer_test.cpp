#include "sim/reports/json_writer.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace photonsim {
namespace {

using Layout = JsonWriter::Layout;

TEST(JsonWriter, LinesLayoutPutsEachMemberOnItsOwnIndentedLine) {
  JsonWriter out;
  out.begin_object().field("a", 1).key("list").begin_array();
  out.begin_object(Layout::inline_).field("x", true).field("y", "z").end_object();
  out.integer(7).end_array().end_object();
  EXPECT_EQ(out.text(), "{\n  \"a\": 1,\n  \"list\": [\n    {\"x\": true, \"y\": \"z\"},\n    7\n  ]\n}\n");
}

TEST(JsonWriter, InlineLayoutKeepsOneLineAndEmptyContainersClose) {
  JsonWriter out;
  out.begin_object(Layout::inline_).key("e").begin_array(Layout::inline_).end_array();
  out.key("pairs").begin_array(Layout::inline_);
  out.begin_array(Layout::inline_).integer(0).integer(1).end_array();
  out.begin_array(Layout::inline_).integer(1).integer(2).end_array();
  out.end_array().key("n").null().key("r").number("1.2500").end_object();
  EXPECT_EQ(out.text(), "{\"e\": [], \"pairs\": [[0, 1], [1, 2]], \"n\": null, \"r\": 1.2500}\n");
}

TEST(JsonWriter, EmptyLinesContainerClosesOnItsOwnLine) {
  JsonWriter out;
  out.begin_object().key("per_step").begin_array().end_array().end_object();
  EXPECT_EQ(out.text(), "{\n  \"per_step\": [\n  ]\n}\n");
}

TEST(JsonWriter, KeysAndStringsAreEscaped) {
  JsonWriter out;
  out.begin_object(Layout::inline_).field("q\"k", std::string("line\nbreak\\")).end_object();
  EXPECT_EQ(out.text(), "{\"q\\\"k\": \"line\\nbreak\\\\\"}\n");
}

TEST(JsonWriter, MisuseIsALogicError) {
  JsonWriter value_without_key;
  value_without_key.begin_object();
  EXPECT_THROW(value_without_key.integer(1), std::logic_error);

  JsonWriter mismatched;
  mismatched.begin_array();
  EXPECT_THROW(mismatched.end_object(), std::logic_error);

  JsonWriter key_in_array;
  key_in_array.begin_array();
  EXPECT_THROW(key_in_array.key("k"), std::logic_error);

  JsonWriter unfinished;
  unfinished.begin_object();
  EXPECT_THROW(unfinished.text(), std::logic_error);

  JsonWriter dangling_key;
  dangling_key.begin_object().key("k");
  EXPECT_THROW(dangling_key.end_object(), std::logic_error);

  JsonWriter two_documents;
  two_documents.integer(1);
  EXPECT_THROW(two_documents.integer(2), std::logic_error);
}

}  // namespace
}  // namespace photonsim
