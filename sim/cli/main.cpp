#include <iostream>

#include "sim/cli/cli.h"
#include "sim/sweep/sweep_mpi.h"

int main(int argc, char** argv) {
  // Before anything else: under mpirun, MPI must own the process from the start.
  const photonsim::MpiSession mpi(&argc, &argv);
  return photonsim::run_cli(argc, argv, std::cout, std::cerr);
}
