#include "core/input_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

class InputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("photonsim_input_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string error_of(const std::string& path, const InputKind& kind) {
    try {
      read_input_file(path, kind);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

TEST_F(InputFile, ReadsARegularFileWhole) {
  const std::string text(200000, 'x');
  std::ofstream(dir_ / "a.yaml") << text;
  EXPECT_EQ(read_input_file((dir_ / "a.yaml").string(), kConfigInput), text);
  std::ofstream(dir_ / "empty.yaml");
  EXPECT_EQ(read_input_file((dir_ / "empty.yaml").string(), kConfigInput), "");
}

TEST_F(InputFile, AFifoIsRefusedWithoutWaitingForAWriter) {
  const std::string fifo = (dir_ / "f").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const std::string e = error_of(fifo, kScheduleInput);
  EXPECT_NE(e.find("schedule '" + fifo + "'"), std::string::npos) << e;
  EXPECT_NE(e.find("a FIFO"), std::string::npos) << e;
}

TEST_F(InputFile, DevicesAndDirectoriesAreRefused) {
  EXPECT_NE(error_of("/dev/zero", kConfigInput).find("a device"), std::string::npos);
  EXPECT_NE(error_of(dir_.string(), kGraphInput).find("a directory"), std::string::npos);
}

TEST_F(InputFile, ASymlinkToARegularFileIsRead) {
  std::ofstream(dir_ / "real") << "seed: 1\n";
  fs::create_symlink(dir_ / "real", dir_ / "link");
  EXPECT_EQ(read_input_file((dir_ / "link").string(), kConfigInput), "seed: 1\n");
}

TEST_F(InputFile, AFileOverItsKindsCapIsRefusedBeforeReading) {
  const std::string big = (dir_ / "big").string();
  std::ofstream{big};
  ASSERT_EQ(::truncate(big.c_str(), static_cast<off_t>(kMscclInput.max_bytes + 1)), 0);
  const std::string e = error_of(big, kMscclInput);
  EXPECT_NE(e.find("MSCCL algorithm file"), std::string::npos) << e;
  EXPECT_NE(e.find("256.0 MiB cap"), std::string::npos) << e;
}

TEST_F(InputFile, PathsTheSystemRejectsAreErrors) {
  EXPECT_NE(error_of((dir_ / "absent").string(), kConfigInput).find("No such file"), std::string::npos);
  EXPECT_NE(error_of(std::string(100000, 'a'), kConfigInput).find("File name too long"), std::string::npos);
  EXPECT_NE(error_of("", kConfigInput).find("empty"), std::string::npos);
}

}  // namespace
}  // namespace photonsim
