// Layering probe (tests/layering/README.md): allowed: the engine runs schedules.
#include "schedules/model/schedule.h"

int probe_engine_includes_schedule_model() { return 0; }
