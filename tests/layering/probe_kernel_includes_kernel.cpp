// Layering probe (tests/layering/README.md): allowed: the kernel's own header.
#include "core/time.h"

int probe_kernel_includes_kernel() { return 0; }
