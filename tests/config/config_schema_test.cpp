#include "sim/config/config_schema.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/error.h"
#include "sim/config/config_loader.h"

namespace photonsim {
namespace {

constexpr const char* kMinimalConfig =
    "fabric:\n"
    "  gpus: 4\n"
    "  bandwidth: 450GB/s\n"
    "  latency: 0ns\n"
    "workload:\n"
    "  collective: alltoall\n"
    "  message: 1MB\n"
    "synthesis:\n"
    "  algorithm: direct\n";

// Keys whose every non-empty text is valid to the loader (a folder, a name
// the engine checks, a file the graph reader opens).
bool takes_any_text(const ConfigKey& key) { return key.kind == "text" || key.kind == "name"; }

TEST(ConfigSchema, EditDistanceCountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("gpus", "gpus"), 0u);
  EXPECT_EQ(edit_distance("latncy", "latency"), 1u);
  EXPECT_EQ(edit_distance("reconfig_dealy", "reconfig_delay"), 2u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(ConfigSchema, NearestKeyIsTheMeantOne) {
  const ConfigSchema& schema = ConfigSchema::builtin();
  EXPECT_EQ(schema.nearest("fabric.reconfig_dealy"), "fabric.reconfig_delay");
  EXPECT_EQ(schema.nearest("fabric.bandwith"), "fabric.bandwidth");
  EXPECT_EQ(schema.nearest("workload.mesage"), "workload.message");
  EXPECT_EQ(schema.nearest("synthesis.algoritm"), "synthesis.algorithm");
  EXPECT_EQ(schema.nearest("workload.reconfig_delay"), "fabric.reconfig_delay");
  EXPECT_EQ(ConfigSchema::nearest_of("duratoin", {"name", "duration", "gpus"}), "duration");
  EXPECT_EQ(ConfigSchema::nearest_of("zzzzzz", {"name", "duration", "gpus"}), std::nullopt);
}

TEST(ConfigSchema, EveryKeyIsUniqueAndItsSectionIsAKey) {
  const ConfigSchema& schema = ConfigSchema::builtin();
  for (const ConfigKey& key : schema.keys()) {
    int count = 0;
    for (const ConfigKey& other : schema.keys()) count += other.path == key.path ? 1 : 0;
    EXPECT_EQ(count, 1) << key.path;
    EXPECT_FALSE(key.doc.empty()) << key.path;
    EXPECT_FALSE(key.default_value.empty()) << key.path;
    const auto dot = key.path.rfind('.');
    if (dot != std::string::npos) {
      const ConfigKey* section = schema.find(key.path.substr(0, dot));
      ASSERT_NE(section, nullptr) << key.path;
      EXPECT_EQ(section->kind, "section") << key.path;
    }
  }
  EXPECT_TRUE(schema.settable("synthesis.algorithm.radix"));
  EXPECT_FALSE(schema.settable("fabric.gpus.count"));
  EXPECT_FALSE(schema.settable("fabric.optics"));
}

// The loader reads every key of the schema: a value no key accepts is refused
// naming that key (a key the schema listed but the loader ignored would be
// accepted silently), never as an unknown key.
TEST(ConfigSchema, TheLoaderReadsEveryKeyOfTheSchema) {
  for (const ConfigKey& key : ConfigSchema::builtin().keys()) {
    if (key.kind == "section" || takes_any_text(key)) continue;
    const std::string assignment = key.path + "=[not, a, value]";
    try {
      load_config_from_string(kMinimalConfig, "exp.yaml", {assignment});
      ADD_FAILURE() << assignment << " was accepted";
    } catch (const Error& error) {
      const std::string message = error.what();
      EXPECT_EQ(message.find("unknown key"), std::string::npos) << message;
    }
  }
}

}  // namespace
}  // namespace photonsim
