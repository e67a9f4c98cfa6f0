#include "sim/sweep/sweep_spec.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.h"
#include "sim/config/config_loader.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

std::string error_of(const std::string& yaml) {
  try {
    load_sweep_from_string(yaml, "s.yaml", "/configs");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(SweepSpec, RangesAreLogSpacedPerDecadeWithBothEnds) {
  const std::vector<std::string> t = expand_range("1us..10ms x10", "k");
  ASSERT_EQ(t.size(), 41u);
  EXPECT_EQ(t.front(), "1000000ps");
  EXPECT_EQ(t[1], "1258925ps");
  EXPECT_EQ(t[10], "10000000ps");
  EXPECT_EQ(t.back(), "10000000000ps");
  EXPECT_EQ(expand_range("1KB..1MB x1", "k"), (std::vector<std::string>{"1000B", "10000B", "100000B", "1000000B"}));
  EXPECT_EQ(expand_range("1..100 x2", "k"), (std::vector<std::string>{"1", "3", "10", "32", "100"}));
  EXPECT_EQ(expand_range("1KiB..3KiB x1", "k"), (std::vector<std::string>{"1024B", "3072B"}));  // B is a point
}

TEST(SweepSpec, GridIsAProductInFileOrderAndZipVariesTogether) {
  const SweepSpec s = load_sweep_from_string(
      "base: q.yaml\n"
      "grid:\n"
      "  fabric.reconfig_delay: [1us, 1ms]\n"
      "  workload.message: 1MB..100MB x1\n"
      "zip:\n"
      "  fabric.gpus: [8, 16]\n"
      "  synthesis.algorithm: [direct, {type: bruck, radix: 3}]\n",
      "s.yaml", "/configs");
  EXPECT_EQ(s.base, "/configs/q.yaml");
  EXPECT_EQ(s.keys(), (std::vector<std::string>{"fabric.reconfig_delay", "workload.message", "fabric.gpus",
                                                "synthesis.algorithm"}));
  const std::vector<SweepPoint> points = s.points();
  ASSERT_EQ(points.size(), 2u * 3u * 2u);
  EXPECT_EQ(points[0].overrides(), (std::vector<std::string>{"fabric.reconfig_delay=1us", "workload.message=1000000B",
                                                             "fabric.gpus=8", "synthesis.algorithm=direct"}));
  EXPECT_EQ(points[1].overrides()[2], "fabric.gpus=16");
  EXPECT_EQ(points[1].overrides()[3], "synthesis.algorithm={type: bruck, radix: 3}");
  EXPECT_EQ(points[2].overrides()[1], "workload.message=10000000B");
  EXPECT_EQ(points.back().overrides()[0], "fabric.reconfig_delay=1ms");
}

TEST(SweepSpec, BadSweepsNameTheKeyAndLine) {
  EXPECT_NE(error_of("grid: {fabric.gpus: [8]}\n").find("missing required key 'base'"), std::string::npos);
  EXPECT_NE(error_of("base: q.yaml\n").find("nothing to sweep"), std::string::npos);
  EXPECT_NE(error_of("base: q.yaml\nsweep: {}\n").find("s.yaml:2: unknown key 'sweep' (valid: base, grid, zip)"),
            std::string::npos);
  std::string e = error_of("base: q.yaml\ngrid:\n  fabric.reconfig_delay: 1us..10ms\n");
  EXPECT_NE(e.find("s.yaml:3:"), std::string::npos) << e;
  EXPECT_NE(e.find("must read A..B xN"), std::string::npos) << e;
  e = error_of("base: q.yaml\ngrid:\n  fabric.reconfig_delay: 1us..10MB x2\n");
  EXPECT_NE(e.find("mixes units"), std::string::npos) << e;
  e = error_of("base: q.yaml\ngrid:\n  fabric.reconfig_delay: 10ms..1us x2\n");
  EXPECT_NE(e.find("needs 0 < A <= B"), std::string::npos) << e;
  e = error_of("base: q.yaml\nzip:\n  fabric.gpus: [8, 16]\n  workload.message: [1MB]\n");
  EXPECT_NE(e.find("s.yaml:4: zip.workload.message has 1 values, zip.fabric.gpus has 2"), std::string::npos) << e;
  e = error_of("base: q.yaml\ngrid:\n  fabric.gpus: [8]\nzip:\n  fabric.gpus: [8]\n");
  EXPECT_NE(e.find("s.yaml:5: key 'fabric.gpus' is swept twice"), std::string::npos) << e;
  e = error_of("base: q.yaml\ngrid:\n  fabric..gpus: [8]\n");
  EXPECT_NE(e.find("malformed key 'fabric..gpus'"), std::string::npos) << e;
  e = error_of("base: q.yaml\ngrid: [1, 2]\n");
  EXPECT_NE(e.find("grid must be a map"), std::string::npos) << e;
}

// A misspelled key is one error at its line with the key that was meant,
// found while the sweep file is read (before any point is built or run).
TEST(SweepSpec, AMisspelledKeyIsRefusedWithTheNearestValidKey) {
  std::string e = error_of("base: q.yaml\ngrid:\n  fabric.gpus: [8, 16]\n  fabric.reconfig_dealy: [1us, 1ms]\n");
  EXPECT_EQ(e,
            "s.yaml:4: grid key 'fabric.reconfig_dealy' is not a config key; did you mean "
            "'fabric.reconfig_delay'? (photonsim list shows every key)");
  e = error_of("base: q.yaml\nzip:\n  workload.mesage: [1MB]\n");
  EXPECT_NE(e.find("s.yaml:3: zip key 'workload.mesage' is not a config key; did you mean 'workload.message'?"),
            std::string::npos)
      << e;
  // A right name in the wrong section points where it belongs.
  e = error_of("base: q.yaml\ngrid:\n  workload.reconfig_delay: [1us]\n");
  EXPECT_NE(e.find("did you mean 'fabric.reconfig_delay'?"), std::string::npos) << e;
  // Parameters of named components are open: the synthesizer checks them.
  EXPECT_EQ(error_of("base: q.yaml\ngrid:\n  synthesis.algorithm.radix: [2, 3]\n"), "");
  EXPECT_EQ(error_of("base: q.yaml\ngrid:\n  fabric.physical.fibers: [1, 2]\n  seed: [1, 2]\n"), "");
}

TEST(SweepSpec, ShippedSweepsLoadAndTheirFirstAndLastPointsAreValidConfigs) {
  const std::filesystem::path dir = std::filesystem::path(PHOTONSIM_SOURCE_DIR) / "configs" / "sweeps";
  size_t sweeps = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const SweepSpec spec = load_sweep(entry.path().string());
    const std::vector<SweepPoint> points = spec.points();
    ASSERT_FALSE(points.empty());
    EXPECT_NO_THROW(load_config(spec.base, points.front().overrides())) << entry.path();
    EXPECT_NO_THROW(load_config(spec.base, points.back().overrides())) << entry.path();
    ++sweeps;
  }
  EXPECT_GE(sweeps, 2u);
}

}  // namespace
}  // namespace photonsim
