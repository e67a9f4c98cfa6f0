#include "tests/support/test_paths.h"

namespace photonsim::test_paths {

const char* source_dir() { return PHOTONSIM_TEST_SOURCE_DIR; }
const char* external_dir() { return PHOTONSIM_TEST_EXTERNAL_DIR; }
const char* binary() { return PHOTONSIM_TEST_BINARY; }

}  // namespace photonsim::test_paths
