// Layering probe (tests/layering/README.md): forbidden: the kernel is below the specs.
#include "core/spec/fabric_spec.h"

int probe_kernel_includes_spec() { return 0; }
