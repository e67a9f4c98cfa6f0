// The provenance files an --out folder keeps (sim/reports/provenance.h):
// their names, contents, and the command line quoted for a shell.
#include "sim/reports/provenance.h"

#include <gtest/gtest.h>

#include "core/build_info.h"
#include "core/version.h"

namespace photonsim {
namespace {

TEST(ShellQuoted, QuotesWhatTheShellWouldSplitOrExpand) {
  EXPECT_EQ(shell_quoted({"photonsim", "run", "a b.yaml", "--set", "x=it's", "", "k=v,w", "$HOME"}),
            "photonsim run 'a b.yaml' --set 'x=it'\\''s' '' k=v,w '$HOME'");
}

TEST(ProvenanceFiles, HoldTheVersionRevisionCommandAndConfig) {
  const auto files =
      provenance_files({{"photonsim", "run", "c.yaml", "--set", "fabric.gpus=4"}, "c.yaml", "seed: 1\n", ""});
  ASSERT_EQ(files.size(), 3u);
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(f.first);
  EXPECT_EQ(names, provenance_file_names());
  EXPECT_EQ(files[0].second,
            std::string("{\n  \"photonsim\": \"") + PHOTONSIM_VERSION + "\",\n  \"git_revision\": \"" +
                PHOTONSIM_GIT_REVISION +
                "\",\n  \"command\": [\"photonsim\", \"run\", \"c.yaml\", \"--set\", \"fabric.gpus=4\"],"
                "\n  \"config\": \"c.yaml\"\n}\n");
  EXPECT_EQ(files[1].second, "photonsim run c.yaml --set fabric.gpus=4\n");
  EXPECT_EQ(files[2].second, "seed: 1\n");
}

TEST(ProvenanceFiles, CommandTxtGoesToTheFolderItRanInFirst) {
  // `sh command.txt` then reruns it from anywhere: its relative paths are the folder's.
  const auto files = provenance_files({{"build/photonsim", "run", "c.yaml"}, "c.yaml", "seed: 1\n", "/home/a b"});
  EXPECT_EQ(files[1].second, "cd '/home/a b' && build/photonsim run c.yaml\n");
  EXPECT_NE(files[0].second.find("\"directory\": \"/home/a b\""), std::string::npos) << files[0].second;
}

}  // namespace
}  // namespace photonsim
