#include "core/output_guard.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

class OutputGuard : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("photonsim_guard_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "sub");
    std::ofstream(dir_ / "c.yaml") << "x";
    config_ = (dir_ / "c.yaml").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string error_of(const std::vector<NamedPath>& outputs) const {
    try {
      refuse_outputs_over_inputs(outputs, {{"config", config_}});
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
  std::string config_;
};

TEST_F(OutputGuard, TheSameFileByAnyNameIsRefused) {
  EXPECT_NE(error_of({{"--out", config_}}).find("the same file as the input config"), std::string::npos);
  EXPECT_NE(error_of({{"--out", (dir_ / "sub" / ".." / "c.yaml").string()}}).find("the input config"),
            std::string::npos);
  ASSERT_EQ(::link(config_.c_str(), (dir_ / "hard").c_str()), 0);
  EXPECT_NE(error_of({{"--trace", (dir_ / "hard").string()}}).find("--trace"), std::string::npos);
  fs::create_symlink(config_, dir_ / "soft");
  EXPECT_NE(error_of({{"--out", (dir_ / "soft").string()}}).find("the input config"), std::string::npos);
}

TEST_F(OutputGuard, OtherFilesPass) {
  std::ofstream(dir_ / "old.json") << "{}";
  EXPECT_EQ(error_of({{"--out", (dir_ / "new.pb").string()},
                      {"--out", (dir_ / "old.json").string()},
                      {"--trace", (dir_ / "missing" / "t.json").string()}}),
            "");
}

TEST_F(OutputGuard, TwoOutputsCannotShareAFileEvenBeforeItExists) {
  const std::string e =
      error_of({{"--out", (dir_ / "r.json").string()}, {"--trace", (dir_ / "sub" / ".." / "r.json").string()}});
  EXPECT_NE(e.find("two outputs cannot share a file"), std::string::npos) << e;
}

}  // namespace
}  // namespace photonsim
