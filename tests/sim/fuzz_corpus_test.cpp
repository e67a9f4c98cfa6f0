// Replays the fuzzing corpus (tests/fuzz/corpus, minimised by scripts/dev/fuzz)
// through the same loaders the harnesses drive: every input either loads or
// is rejected with a one-line photonsim::Error, never anything else. Inputs
// that once crashed stay in the corpus, so they are regression tests too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "schedules/model/schedule_io.h"
#include "sim/config/config_loader.h"
#include "tests/fuzz/chakra_fuzz_target.h"
#include "tests/fuzz/graph_fuzz_target.h"
#include "tests/fuzz/msccl_fuzz_target.h"
#include "tests/fuzz/paths_fuzz_target.h"
#include "tests/fuzz/schedule_fuzz_target.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> corpus(const std::string& harness) {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(PHOTONSIM_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / harness;
  if (fs::exists(dir)) {
    for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  }
  return files;
}

TEST(FuzzCorpus, ConfigInputsLoadOrFailWithOneLine) {
  const std::vector<fs::path> files = corpus("config");
  EXPECT_GE(files.size(), 10u);
  for (const fs::path& f : files) {
    try {
      photonsim_fuzz::exercise_graph_config(load_config_from_string(contents(f), "fuzz.yaml"));
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << f;
    } catch (const std::exception& e) {
      ADD_FAILURE() << f << ": " << e.what();
    }
  }
}

TEST(FuzzCorpus, ScheduleInputsParseVerifyAndReplayOrFailWithAnError) {
  const std::vector<fs::path> files = corpus("schedule");
  EXPECT_GE(files.size(), 10u);
  for (const fs::path& f : files) {
    const std::string data = contents(f);
    if (data.empty()) continue;
    try {
      photonsim_fuzz::exercise_schedule_input(reinterpret_cast<const uint8_t*>(data.data()), data.size());
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << f;
    } catch (const std::exception& e) {
      ADD_FAILURE() << f << ": " << e.what();
    }
  }
}

TEST(FuzzCorpus, ChakraInputsBecomeGraphsOrFailWithOneLine) {
  const std::vector<fs::path> files = corpus("chakra");
  EXPECT_GE(files.size(), 4u);
  size_t graphs = 0;
  for (const fs::path& f : files) {
    const std::string data = contents(f);
    try {
      photonsim_fuzz::exercise_chakra_input(reinterpret_cast<const uint8_t*>(data.data()), data.size());
      ++graphs;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << f;
    } catch (const std::exception& e) {
      ADD_FAILURE() << f << ": " << e.what();
    }
  }
  EXPECT_GE(graphs, 2u);  // the shipped traces' seeds
}

TEST(FuzzCorpus, MscclInputsReadOrFailWithOneLine) {
  const std::vector<fs::path> files = corpus("msccl");
  EXPECT_GE(files.size(), 4u);
  size_t read = 0;
  for (const fs::path& f : files) {
    const std::string data = contents(f);
    try {
      photonsim_fuzz::exercise_msccl_input(reinterpret_cast<const uint8_t*>(data.data()), data.size());
      ++read;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << f;
    } catch (const std::exception& e) {
      ADD_FAILURE() << f << ": " << e.what();
    }
  }
  EXPECT_GE(read, 2u);  // the shipped algorithms' seeds
}

// The path harnesses' corpora: every command on those folders ends in exit
// 0, 1 or 2, leaves its inputs as they were and writes only regular files.
TEST(FuzzCorpus, OutputPathsNeverReplaceInputsOrEndBadly) {
  const std::vector<fs::path> files = corpus("outputs");
  EXPECT_GE(files.size(), 10u);
  const std::string scratch = (fs::path(::testing::TempDir()) / "photonsim_corpus_outputs").string();
  for (const fs::path& f : files) {
    const std::string data = contents(f);
    EXPECT_EQ(photonsim_fuzz::exercise_paths(reinterpret_cast<const uint8_t*>(data.data()), data.size(),
                                             photonsim_fuzz::PathsMode::outputs, scratch),
              "")
        << f;
  }
}

TEST(FuzzCorpus, InputKindsAreReadOrRefusedAtOnce) {
  const std::vector<fs::path> files = corpus("inputs");
  EXPECT_GE(files.size(), 10u);
  const std::string scratch = (fs::path(::testing::TempDir()) / "photonsim_corpus_inputs").string();
  for (const fs::path& f : files) {
    const std::string data = contents(f);
    EXPECT_EQ(photonsim_fuzz::exercise_paths(reinterpret_cast<const uint8_t*>(data.data()), data.size(),
                                             photonsim_fuzz::PathsMode::inputs, scratch),
              "")
        << f;
  }
}

}  // namespace
}  // namespace photonsim
