// The adversarial battery, outputs: every path photonsim writes is replaced
// atomically only when it is a regular file (or absent); anything else is
// refused untouched, and a failed write to stdout fails the run.
#include "tests/cli/hostile_run.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace photonsim_test {
namespace {

using AdversarialOutputs = Hostile;

TEST_F(AdversarialOutputs, SynthOverAFifoIsRefused) {
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  refuse({"synth", quickstart(), "--out", fifo}, {"fifo", "a FIFO"});
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(AdversarialOutputs, SynthThroughASymlinkLeavesItsTargetAlone) {
  const std::string target = write("precious.txt", "keep me");
  fs::create_symlink(target, dir_ / "link.pb");
  refuse({"synth", quickstart(), "--out", (dir_ / "link.pb").string()}, {"link.pb", "symbolic link"});
  EXPECT_EQ(slurp(target), "keep me");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.pb"));
}

TEST_F(AdversarialOutputs, SynthOverADeviceIsRefused) {
  // A private device node (the same as /dev/full) where mknod is allowed, so
  // that running the battery against an old build (PHOTONSIM_BATTERY_BINARY),
  // which replaced /dev/full once, cannot harm the machine's.
  std::string device = (dir_ / "full").string();
  if (::mknod(device.c_str(), S_IFCHR | 0666, ::makedev(1, 7)) != 0) device = "/dev/full";
  refuse({"synth", quickstart(), "--out", device}, {device, "a device"});
  EXPECT_TRUE(fs::is_character_file(device));
}

TEST_F(AdversarialOutputs, SynthOverADirectoryIsRefused) {
  fs::create_directories(dir_ / "adir");
  refuse({"synth", quickstart(), "--out", (dir_ / "adir").string()}, {"adir", "a directory"});
}

TEST_F(AdversarialOutputs, RunOutDirWhoseResultJsonIsASymlink) {
  const std::string target = write("precious.json", "{}");
  fs::create_directories(dir_ / "out");
  fs::create_symlink(target, dir_ / "out" / "result.json");
  refuse({"run", quickstart(), "--out", (dir_ / "out").string()}, {"result.json", "symbolic link"});
  EXPECT_EQ(slurp(target), "{}");
}

TEST_F(AdversarialOutputs, RunOutDirWhoseScheduleIsAFifo) {
  fs::create_directories(dir_ / "out");
  ASSERT_EQ(::mkfifo((dir_ / "out" / "schedule.pb").c_str(), 0644), 0);
  refuse({"run", quickstart(), "--out", (dir_ / "out").string()}, {"schedule.pb", "a FIFO"});
}

TEST_F(AdversarialOutputs, RunOutDirThatIsARegularFile) {
  const std::string file = write("plain", "x");
  refuse({"run", quickstart(), "--out", file}, {"plain"});
  EXPECT_EQ(slurp(file), "x");
}

TEST_F(AdversarialOutputs, RunOutDirInsideProcCannotBeCreated) {
  // Read-only for every user, root included.
  refuse({"run", quickstart(), "--out", "/proc/photonsim_results"}, {"/proc/photonsim_results"});
}

TEST_F(AdversarialOutputs, SynthIntoAMissingParentUnderAFile) {
  const std::string file = write("plain", "x");
  refuse({"synth", quickstart(), "--out", file + "/s.pb"}, {"plain"});
}

TEST_F(AdversarialOutputs, RunToAFullStdoutFails) {
  // Before the fix: exit 0 with every byte lost.
  const HostileOutcome o = run_photonsim({"run", quickstart()}, dir_, {}, "/dev/full");
  expect_refused(o, "run > /dev/full", {"standard output", "No space left on device"});
  EXPECT_EQ(o.code, 1);
}

TEST_F(AdversarialOutputs, ListToAFullStdoutFails) {
  const HostileOutcome o = run_photonsim({"list"}, dir_, {}, "/dev/full");
  expect_refused(o, "list > /dev/full", {"standard output"});
}

TEST_F(AdversarialOutputs, TopoJsonToAFullStdoutFails) {
  const HostileOutcome o =
      run_photonsim({"topo", "--type", "ring", "--gpus", "2000", "--format", "json"}, dir_, {}, "/dev/full");
  expect_refused(o, "topo > /dev/full", {"standard output"});
}

TEST_F(AdversarialOutputs, SweepOutIsARegularFile) {
  // Before the fix: an uncaught filesystem_error, exit 3.
  const std::string file = write("plain", "x");
  const HostileOutcome o = run({"sweep", source("configs/sweeps/harvest_regimes.yaml"), "--out", file});
  expect_refused(o, "sweep --out FILE", {"plain", "Not a directory"});
  EXPECT_EQ(o.code, 1);
}

TEST_F(AdversarialOutputs, SweepResultsCsvIsAFifo) {
  fs::create_directories(dir_ / "sw");
  ASSERT_EQ(::mkfifo((dir_ / "sw" / "results.csv").c_str(), 0644), 0);
  refuse({"sweep", source("configs/sweeps/harvest_regimes.yaml"), "--out", (dir_ / "sw").string(), "--resume"},
         {"results.csv", "a FIFO"});
}

TEST_F(AdversarialOutputs, SweepResultsCsvIsASymlink) {
  const std::string target = write("precious.csv", "a,b\n");
  fs::create_directories(dir_ / "sw");
  fs::create_symlink(target, dir_ / "sw" / "results.csv");
  refuse({"sweep", source("configs/sweeps/harvest_regimes.yaml"), "--out", (dir_ / "sw").string(), "--resume"},
         {"results.csv", "symbolic link"});
  EXPECT_EQ(slurp(target), "a,b\n");
}

}  // namespace
}  // namespace photonsim_test
