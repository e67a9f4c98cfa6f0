#pragma once
// Contract: whether the exhaustive sweeps run at their full size
// (PHOTONSIM_LONG_TESTS=1, which `scripts/test --long` sets) or at the fast
// default every run of the suite uses. A test that shrinks says what its
// default still covers; docs/testing.md lists them.
#include <cstdlib>
#include <cstring>

namespace photonsim::testing_support {

inline bool long_tests() {
  const char* value = std::getenv("PHOTONSIM_LONG_TESTS");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

}  // namespace photonsim::testing_support
