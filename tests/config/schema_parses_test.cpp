// The schema parses (issue 50, item 5): each key's line binds it to its spec
// field through its kind's parser, ranges and defaults stated once; graph-node
// and Chakra keys are schema keys; a reconfiguration model's parameters are
// read through the schema.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "core/spec/task_graph.h"
#include "sim/config/chakra_import.h"
#include "sim/config/config_key_builders.h"
#include "sim/config/config_loader.h"
#include "sim/config/config_reader.h"
#include "sim/config/config_schema.h"
#include "tests/support/minimal_config.h"

namespace photonsim {
namespace {

std::string schema_parses_error_of(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  try {
    load_config_from_string(yaml, "exp.yaml", sets);
  } catch (const Error& error) {
    return error.what();
  }
  return "(accepted)";
}

TEST(SchemaParses, AReconfigurationModelTakesItsDeclaredParameters) {
  const ExperimentConfig bare =
      load_config_from_string(kMinimalConfig, "exp.yaml", {"fabric.reconfig_model=sequential"});
  EXPECT_EQ(bare.fabric.reconfig_model, "sequential");
  EXPECT_TRUE(bare.fabric.reconfig_params.empty());
  const std::string with_model = std::string(kMinimalConfig)
                                     .replace(std::string(kMinimalConfig).find("  latency: 0ns\n"), 14,
                                              "  latency: 0ns\n"
                                              "  reconfig_model: {type: sequential, per_port: 1.5ns}\n");
  const ExperimentConfig c = load_config_from_string(with_model, "exp.yaml");
  EXPECT_EQ(c.fabric.reconfig_model, "sequential");
  ASSERT_EQ(c.fabric.reconfig_params.count("per_port"), 1u);
  EXPECT_EQ(c.fabric.reconfig_params.at("per_port"), "1500ps");
  // Through --set, as a sweep sets it.
  const ExperimentConfig set =
      load_config_from_string(kMinimalConfig, "exp.yaml", {"fabric.reconfig_model={type: sequential, per_port: 2ns}"});
  EXPECT_EQ(set.fabric.reconfig_params.at("per_port"), "2000ps");
  EXPECT_TRUE(ConfigSchema::builtin().settable("fabric.reconfig_model.per_port"));
}

TEST(SchemaParses, AnUnknownModelParameterIsRefusedAtItsLine) {
  const std::string in_fabric = std::string(kMinimalConfig)
                                    .replace(std::string(kMinimalConfig).find("  latency: 0ns\n"), 14,
                                             "  latency: 0ns\n"
                                             "  reconfig_model:\n"
                                             "    type: sequential\n"
                                             "    per_prot: 1ns\n");
  EXPECT_EQ(schema_parses_error_of(in_fabric),
            "exp.yaml:7: fabric.reconfig_model: model 'sequential' has no parameter 'per_prot' (valid: per_port)");
  EXPECT_EQ(schema_parses_error_of(kMinimalConfig, {"fabric.reconfig_model={type: constant, per_port: 1ns}"}),
            "--set fabric.reconfig_model={type: constant, per_port: 1ns}: fabric.reconfig_model: model 'constant' "
            "has no parameter 'per_port' (valid: none)");
  // The value goes through the time kind's parser.
  EXPECT_EQ(schema_parses_error_of(kMinimalConfig, {"fabric.reconfig_model={type: sequential, per_port: -1ns}"}),
            "--set fabric.reconfig_model={type: sequential, per_port: -1ns}: fabric.reconfig_model.per_port must not "
            "be negative (got '-1ns')");
  EXPECT_EQ(schema_parses_error_of(kMinimalConfig, {"fabric.reconfig_model=teleport"}),
            "--set fabric.reconfig_model=teleport: fabric.reconfig_model: unknown model 'teleport' (valid: constant, "
            "sequential)");
}

TEST(SchemaParses, RangesAndDefaultsAreStatedOnceForTheCheckAndTheDocs) {
  const ConfigSchema& schema = ConfigSchema::builtin();
  EXPECT_EQ(schema.find("fabric.physical.wavelengths")->allowed, "1 .. 1024");
  EXPECT_NE(schema_parses_error_of(kMinimalConfig,
                                   {"fabric.physical={servers: 1x1, tiles: 2x2, mesh: 8x8, wavelengths: 1025}"})
                .find("fabric.physical.wavelengths must be an integer in 1..1024 (got '1025')"),
            std::string::npos);
  EXPECT_EQ(schema.find("fabric.gpus")->allowed, ">= 2");
  EXPECT_EQ(schema.find("seed")->allowed, "0 .. 2^64-1");
  EXPECT_EQ(schema.find("fabric.router")->allowed, "cut_through | store_and_forward");
  EXPECT_EQ(schema.find("fabric.reconfig_delay")->default_value, format_time(FabricSpec{}.reconfig_delay));
  EXPECT_EQ(schema.find("fabric.physical.tile_loss_db")->default_value, real_text(PhysicalSpec{}.tile_loss_db));
  EXPECT_EQ(schema.find("workload.zipf_factor")->default_value, real_text(WorkloadSpec{}.zipf_factor));
  // Every key a section's reader takes is read through its line.
  for (const ConfigKey& key : schema.keys()) {
    if (key.kind != "section" && key.path != "workload.message_scope") {
      EXPECT_TRUE(static_cast<bool>(key.read)) << key.path;
    }
  }
}

// A new key of an existing kind is its spec field and one line: the line's
// read parses and stores, its default and allowed text come with it.
TEST(SchemaParses, OneLineMakesAKey) {
  const ConfigKey key = time_key("fabric.example", &FabricSpec::step_overhead, "an example");
  EXPECT_EQ(key.kind, "time");
  EXPECT_EQ(key.default_value, "0ps");
  EXPECT_EQ(key.allowed.substr(0, 5), ">= 0,");
  ConfigReader reader("exp.yaml", {}, nullptr);
  ExperimentConfig config;
  key.read(reader, ConfigValue{YAML::Node("2.5us"), key.path, "exp.yaml:3"}, config);
  EXPECT_EQ(config.fabric.step_overhead, Time::ps(2500000));
  try {
    key.read(reader, ConfigValue{YAML::Node("-1us"), key.path, "exp.yaml:3"}, config);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "exp.yaml:3: fabric.example must not be negative (got '-1us')");
  }
  const ConfigKey bounded = integer_key("fabric.example_count", &FabricSpec::ports, 1, 64, "ports", "an example");
  EXPECT_EQ(bounded.allowed, "1 .. 64");
  EXPECT_EQ(bounded.default_value, "1");
}

TEST(SchemaParses, GraphNodeAndChakraKeysAreSchemaKeys) {
  const ConfigSchema& schema = ConfigSchema::builtin();
  using Names = std::vector<std::string>;
  EXPECT_EQ(schema.node_keys("compute"), (Names{"name", "type", "after", "gpus", "duration"}));
  EXPECT_EQ(schema.node_keys("collective"),
            (Names{"name", "type", "after", "collective", "gpus", "message", "root", "algorithm", "planner"}));
  EXPECT_EQ(schema.node_keys("p2p"), (Names{"name", "type", "after", "src", "dst", "bytes"}));
  EXPECT_EQ(schema.node_keys("delay"), (Names{"name", "type", "after", "gpus", "duration"}));
  EXPECT_EQ(schema.chakra_keys(), (Names{"chakra", "replicate", "algorithms"}));
  // Listed (photonsim list, docs/config.md) right after workload.graph, but not settable on their own.
  const std::string text = schema.text();
  EXPECT_NE(text.find("workload.graph[].duration"), std::string::npos);
  EXPECT_NE(text.find("workload.graph.replicate"), std::string::npos);
  EXPECT_LT(text.find("workload.graph "), text.find("workload.graph.chakra"));
  EXPECT_NE(schema.markdown().find("| `workload.graph[].gpus` | list | GPUs |"), std::string::npos);
  EXPECT_FALSE(schema.settable("workload.graph.chakra"));
}

// A graph node's and a Chakra map's keys are read through their lines, as
// the config's own are: the range the parser checks is the one the docs show.
TEST(SchemaParses, GraphKeysAreReadThroughTheirLines) {
  const ConfigSchema& schema = ConfigSchema::builtin();
  for (const ConfigKey& key : schema.graph_keys()) {
    if (key.node_types.empty()) {
      EXPECT_TRUE(static_cast<bool>(key.read_chakra)) << key.path;
    } else if (key.name() != "name") {  // the graph reader reads the name itself
      EXPECT_TRUE(static_cast<bool>(key.read_node)) << key.path;
    }
  }
  EXPECT_EQ(schema.node_key("src")->allowed, ">= 0");
  EXPECT_EQ(schema.chakra_key("replicate")->allowed, ">= 2");
  EXPECT_EQ(schema.node_key("collective")->allowed, "alltoall | allreduce | reducescatter | allgather | broadcast");
  TaskNode node;
  const Locate nowhere = [](const YAML::Mark&) { return std::string("exp.yaml"); };
  schema.node_key("src")->read_node(ConfigValue{YAML::Node("3"), "src", "exp.yaml:9"}, 8, nowhere, node);
  EXPECT_EQ(node.src, 3);
  try {
    schema.node_key("src")->read_node(ConfigValue{YAML::Node("-1"), "src", "exp.yaml:9"}, 8, nowhere, node);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "exp.yaml:9: src must be an integer >= 0 (got '-1')");
  }
  ChakraImport import;
  const YAML::Node algorithms = YAML::Load("{allreduce: ring, alltoall: bruck}");
  schema.chakra_key("algorithms")
      ->read_chakra(ConfigValue{algorithms, "workload.graph.algorithms", "exp.yaml:7"}, import);
  EXPECT_EQ(import.algorithms.at(Collective::allreduce), "ring");
  EXPECT_EQ(import.algorithms.at(Collective::alltoall), "bruck");
}

// workload.collective and a node's collective go through the choice parser.
TEST(SchemaParses, CollectivesAreChoices) {
  const std::string bogus =
      std::string(kMinimalConfig).replace(std::string(kMinimalConfig).find("alltoall"), 8, "gather");
  EXPECT_EQ(schema_parses_error_of(bogus),
            "exp.yaml:6: workload.collective must be one of: alltoall, allreduce, reducescatter, allgather, broadcast "
            "(got 'gather')");
  EXPECT_EQ(load_config_from_string(kMinimalConfig, "exp.yaml", {"workload.collective=broadcast"}).workload.collective,
            Collective::broadcast);
}

// photonsim list's catalogs are headed by the keys that take their names.
TEST(SchemaParses, CatalogHeadingsNameTheirKeys) {
  const ConfigSchema& schema = ConfigSchema::builtin();
  EXPECT_EQ(schema.catalog_heading("algorithms"), "algorithms (synthesis.algorithm):");
  EXPECT_EQ(schema.catalog_heading("topologies"), "topologies (synthesis.topology, synthesis.static_topology):");
  EXPECT_EQ(schema.catalog_heading("reconfiguration models"), "reconfiguration models (fabric.reconfig_model):");
}

// photonsim list prints every enum's names from the schema, once.
TEST(SchemaParses, TheListShowsEveryEnumFromTheSchema) {
  const std::string text = ConfigSchema::builtin().text();
  for (const char* names : {"alltoall | allreduce", "uniform | random | zipf", "cut_through | store_and_forward",
                            "directed | bidirectional", "chunk | fifo | chunk_fifo", "circuit | gpu",
                            "barrier | dataflow", "all | changed", "compute | collective | p2p | delay", "p2p | fifo",
                            "false | true", "constant | sequential {per_port: time, default 0ps}"}) {
    EXPECT_NE(text.find(names), std::string::npos) << names;
  }
}

}  // namespace
}  // namespace photonsim
