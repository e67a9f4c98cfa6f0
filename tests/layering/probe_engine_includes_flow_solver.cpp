// Layering probe (tests/layering/README.md): forbidden: the engine links no LP solver.
#include "topology/flow/max_concurrent_flow.h"

int probe_engine_includes_flow_solver() { return 0; }
