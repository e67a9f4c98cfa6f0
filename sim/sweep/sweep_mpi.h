#pragma once
// Contract: sweeps across machines. When photonsim is built with MPI
// (PHOTONSIM_WITH_MPI, CMake found an MPI) and launched by mpirun/srun,
// MpiSession (held by main) initialises MPI and mpi_world_size() is the
// number of ranks; otherwise MPI is never touched and the size is 1.
// run_sweep_mpi: rank 0 reads results.csv and broadcasts the pending points;
// rank r runs pending points r, r + size, ... in its own process and sends
// each answer to rank 0, which writes every row (SweepResults) as it
// arrives. Only rank 0's outcome has `report` set.
#include <ostream>

#include "sim/sweep/sweep_results.h"
#include "sim/sweep/sweep_spec.h"

namespace photonsim {

struct SweepOptions;

class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);  // initialises MPI only under a launcher
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  [[maybe_unused]] bool initialised_ = false;  // read only when built with MPI
};

int mpi_world_size();
bool under_mpi_launcher();  // the environment of mpirun / srun
bool built_with_mpi();
SweepOutcome run_sweep_mpi(const SweepSpec& spec, const SweepOptions& options, std::ostream& log);

}  // namespace photonsim
