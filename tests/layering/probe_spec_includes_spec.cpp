// Layering probe (tests/layering/README.md): allowed: the specs' own header.
#include "core/spec/fabric_spec.h"

int probe_spec_includes_spec() { return 0; }
