#include "sim/reports/csv_text.h"

#include <gtest/gtest.h>

namespace photonsim {
namespace {

TEST(CsvText, FieldsAreQuotedOnlyWhenTheyMustBe) {
  EXPECT_EQ(csv_field("ring"), "ring");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
}

TEST(CsvText, RecordsKeepQuotedNewlinesAndSplitBack) {
  const std::string text = "k,name\n1," + csv_field("a\nb,\"c\"") + "\n2,plain\r\n";
  const CsvRecords r = csv_records(text);
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_FALSE(r.torn);
  EXPECT_EQ(r.complete_bytes, text.size());
  EXPECT_EQ(csv_split(r.records[1]), (std::vector<std::string>{"1", "a\nb,\"c\""}));
  EXPECT_EQ(csv_split(r.records[2]), (std::vector<std::string>{"2", "plain"}));
}

TEST(CsvText, AnUnterminatedLastRecordIsTorn) {
  const std::string text = "k,v\n1,x\n2,\"half";
  const CsvRecords r = csv_records(text);
  EXPECT_TRUE(r.torn);
  EXPECT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.complete_bytes, std::string("k,v\n1,x\n").size());
}

TEST(CsvText, ALineQuotesEachFieldThatNeedsItAndEndsTheRecord) {
  EXPECT_EQ(csv_line({"gpus", "a,b", "say \"hi\"", ""}), "gpus,\"a,b\",\"say \"\"hi\"\"\",\n");
  EXPECT_EQ(csv_line({}), "\n");
  EXPECT_EQ(csv_split(csv_line({"x", "y,z"}).substr(0, 7)), (std::vector<std::string>{"x", "y,z"}));
}

}  // namespace
}  // namespace photonsim
