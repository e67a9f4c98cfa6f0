#include "core/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) / (std::string("photonsim_atomic_") + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Every regular file under dir_, relative.
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir_).string());
    }
    return out;
  }

  fs::path dir_;
};

TEST_F(AtomicFileTest, WritesExactContentIncludingBinary) {
  const fs::path target = dir_ / "out.bin";
  std::string content("line1\nline2\0\xff\x01", 15);
  write_file_atomically(target.string(), content);
  EXPECT_EQ(slurp(target), content);
  EXPECT_EQ(files(), std::vector<std::string>{"out.bin"});
}

TEST_F(AtomicFileTest, CreatesMissingParentDirectories) {
  const fs::path target = dir_ / "a" / "b" / "c" / "result.txt";
  write_file_atomically(target.string(), "hello");
  EXPECT_EQ(slurp(target), "hello");
  EXPECT_EQ(files(), std::vector<std::string>{(fs::path("a") / "b" / "c" / "result.txt").string()});
}

TEST_F(AtomicFileTest, ReplacesExistingFileAndLeavesNoTemporary) {
  const fs::path target = dir_ / "out.txt";
  write_file_atomically(target.string(), "a much longer first version");
  write_file_atomically(target.string(), "v2");
  EXPECT_EQ(slurp(target), "v2");
  EXPECT_FALSE(fs::exists(target.string() + ".tmp"));
  EXPECT_EQ(files(), std::vector<std::string>{"out.txt"});
}

TEST_F(AtomicFileTest, EmptyContent) {
  const fs::path target = dir_ / "empty";
  write_file_atomically(target.string(), "");
  ASSERT_TRUE(fs::exists(target));
  EXPECT_EQ(fs::file_size(target), uintmax_t{0});
}

TEST_F(AtomicFileTest, TargetIsADirectoryThrowsNamingPathAndCleansUp) {
  const fs::path target = dir_ / "occupied";
  fs::create_directories(target / "inner");
  try {
    write_file_atomically(target.string(), "data");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(target.string() + ".tmp"));
  EXPECT_TRUE(fs::is_directory(target));
}

TEST_F(AtomicFileTest, ParentIsARegularFileThrows) {
  const fs::path blocker = dir_ / "blocker";
  write_file_atomically(blocker.string(), "x");
  const fs::path target = blocker / "child.txt";
  try {
    write_file_atomically(target.string(), "data");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(blocker.string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(blocker), "x");
}

}  // namespace
}  // namespace photonsim
