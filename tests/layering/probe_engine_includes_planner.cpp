// Layering probe (tests/layering/README.md): forbidden: the engine never plans.
#include "schedules/planners/planner.h"

int probe_engine_includes_planner() { return 0; }
