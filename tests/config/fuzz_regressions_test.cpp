// Inputs the fuzzers found (scripts/dev/fuzz), kept as regression tests.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/error.h"
#include "sim/config/config_loader.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

// fuzz_config (tests/fuzz/regressions/config_multiline_key.yaml): a key
// holding newlines came back verbatim inside the "unknown key" message, which
// then ran over several lines.
TEST(FuzzRegressions, MultiLineKeyGivesAOneLineError) {
  const std::string path = std::string(PHOTONSIM_SOURCE_DIR) + "/tests/fuzz/regressions/config_multiline_key.yaml";
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty()) << path;
  try {
    load_config_from_string(text.str(), "fuzz.yaml");
    ADD_FAILURE() << "expected an Error";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_NE(message.find("unknown key"), std::string::npos) << message;
    EXPECT_NE(message.find("\\n"), std::string::npos) << "the newline is escaped: " << message;
  }
}

TEST(FuzzRegressions, ErrorsEscapeControlCharacters) {
  EXPECT_STREQ(Error("a\nb\tc\x01\x7f"
                     "d")
                   .what(),
               "a\\nb\\tc\\x01\\x7fd");
  EXPECT_EQ(one_line("plain text"), "plain text");
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

// fuzz_config (tests/fuzz/regressions/config_comma_hang.yaml, "\n,"): after
// the loader began looking for a second document with YAML::LoadAll, that
// input never returned (yaml-cpp loops on it). Second documents are now found
// from the text and the single document parsed with YAML::Load.
TEST(FuzzRegressions, CommaAloneIsAnErrorNotAHang) {
  for (const std::string& text : {std::string("\n,"), std::string(","), std::string("a: 1\n,")}) {
    EXPECT_THROW(load_config_from_string(text, "fuzz.yaml"), Error) << text;
  }
}

TEST(SecondYamlDocument, FoundFromTheTextAtItsLine) {
  EXPECT_EQ(second_yaml_document_line("a: 1\n"), 0);
  EXPECT_EQ(second_yaml_document_line("---\na: 1\n"), 0);                  // an explicit first document
  EXPECT_EQ(second_yaml_document_line("%YAML 1.2\n---\na: 1\n...\n"), 0);  // directive, end marker
  EXPECT_EQ(second_yaml_document_line("# c\n\na: 1\n---\nb: 2\n"), 4);
  EXPECT_EQ(second_yaml_document_line("---\na: 1\n--- {b: 2}\n"), 3);
  EXPECT_EQ(second_yaml_document_line("a: 1\n...\nb: 2\n"), 3);
  EXPECT_EQ(second_yaml_document_line("a: |\n  ---\n  text\n"), 0);  // indented: inside a block scalar
  EXPECT_EQ(second_yaml_document_line("a: 1\n----\n"), 0);           // not a marker
}

}  // namespace
}  // namespace photonsim
