// The adversarial battery, command-line usage: every hostile invocation is
// refused with exit 1 or 2 and one line naming what was wrong.
#include "tests/cli/hostile_run.h"

namespace photonsim_test {
namespace {

using AdversarialUsage = Hostile;

TEST_F(AdversarialUsage, UnknownVerbListsTheValidOnes) {
  refuse({"simulate", quickstart()}, {"unknown command 'simulate'", "run, synth"});
}

TEST_F(AdversarialUsage, MissingConfigFileIsNamed) {
  refuse({"run", (dir_ / "absent.yaml").string()}, {"absent.yaml"});
}

TEST_F(AdversarialUsage, UnknownOptionIsBadUsage) {
  const HostileOutcome o = run({"run", quickstart(), "--frobnicate"});
  expect_refused(o, "--frobnicate", {"frobnicate"});
  EXPECT_EQ(o.code, 2);
}

}  // namespace
}  // namespace photonsim_test
