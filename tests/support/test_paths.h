#pragma once
// Contract: where a test finds the checkout (PHOTONSIM_SOURCE_DIR), the files
// other tools wrote, unpacked in the build tree (PHOTONSIM_EXTERNAL_DIR), and
// the photonsim binary (PHOTONSIM_BINARY): each a const char*. The paths are
// compiled into one small object (test_paths.cpp) and not into every test's
// command line, so a test object is the same from one checkout to the next
// and a compiler cache reuses it in a fresh clone (docs/testing.md).

namespace photonsim::test_paths {

const char* source_dir();
const char* external_dir();
const char* binary();

}  // namespace photonsim::test_paths

#define PHOTONSIM_SOURCE_DIR (::photonsim::test_paths::source_dir())
#define PHOTONSIM_EXTERNAL_DIR (::photonsim::test_paths::external_dir())
#define PHOTONSIM_BINARY (::photonsim::test_paths::binary())
