#include "sim/sweep/sweep_mpi.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "sim/sweep/sweep_runner.h"

#ifdef PHOTONSIM_WITH_MPI
#include <mpi.h>
#endif

namespace photonsim {

namespace {

// Launchers announce themselves in the environment (Open MPI, PMI/PMIx as
// used by MPICH and Slurm's srun); a plain run never initialises MPI.
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"}) {
    if (std::getenv(name)) return true;
  }
  return false;
}

}  // namespace

bool under_mpi_launcher() { return launched_by_mpi(); }

#ifdef PHOTONSIM_WITH_MPI

namespace {
constexpr int kRowTag = 1;
constexpr int kDoneTag = 2;

void send_text(const std::string& text, int tag) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, tag, MPI_COMM_WORLD);
}

// Receives one message from anyone; returns its tag and text.
int receive(std::string& text) {
  MPI_Status status;
  MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
  int size = 0;
  MPI_Get_count(&status, MPI_CHAR, &size);
  text.assign(static_cast<size_t>(size), '\0');
  MPI_Recv(text.data(), size, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return status.MPI_TAG;
}

bool message_waiting() {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  return flag != 0;
}
}  // namespace

MpiSession::MpiSession(int* argc, char*** argv) {
  if (!launched_by_mpi()) return;
  MPI_Init(argc, argv);
  initialised_ = true;
}

MpiSession::~MpiSession() {
  if (initialised_) MPI_Finalize();
}

int mpi_world_size() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) return 1;
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

bool built_with_mpi() { return true; }

SweepOutcome run_sweep_mpi(const SweepSpec& spec, const SweepOptions& options, std::ostream& log) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::unique_ptr<SweepResults> results;
  std::vector<unsigned long long> pending;
  std::string failure;
  if (rank == 0) {
    try {
      results = std::make_unique<SweepResults>(spec, options.out_dir, options.resume);
      pending.assign(results->pending().begin(), results->pending().end());
      for (const std::string& note : results->notes()) log << "sweep: " << note << "\n";
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  // Everyone learns the pending points, or that rank 0 could not start.
  unsigned long long count = failure.empty() ? pending.size() : ~0ULL;
  MPI_Bcast(&count, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  if (count == ~0ULL) {
    if (rank == 0) throw Error(failure);
    SweepOutcome quiet;
    quiet.report = false;
    return quiet;
  }
  pending.resize(count);
  MPI_Bcast(pending.data(), static_cast<int>(count), MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  const std::vector<SweepPoint> points = spec.points();
  const ExperimentPipeline pipeline(options.memory ? &*options.memory : nullptr);
  auto handle = [&](const std::string& message) {
    const size_t newline = message.find('\n');
    results->record(std::stoull(message.substr(0, newline)), message.substr(newline + 1), log, false);
  };
  int finished_ranks = 0;
  for (size_t j = static_cast<size_t>(rank); j < pending.size(); j += static_cast<size_t>(size)) {
    const size_t index = pending[j];
    const std::string message = std::to_string(index) + "\n" +
                                sweep_point_answer(spec, points[index], pipeline, sweep_outputs(options.out_dir));
    if (rank == 0) {
      handle(message);
      std::string text;
      while (message_waiting()) {
        if (receive(text) == kDoneTag) {
          ++finished_ranks;
        } else {
          handle(text);
        }
      }
    } else {
      send_text(message, kRowTag);
    }
  }
  if (rank != 0) {
    send_text("", kDoneTag);
    SweepOutcome quiet;
    quiet.report = false;
    return quiet;
  }
  std::string text;
  while (finished_ranks < size - 1) {
    if (receive(text) == kDoneTag) {
      ++finished_ranks;
    } else {
      handle(text);
    }
  }
  return results->outcome();
}

#else

MpiSession::MpiSession(int*, char***) {}
MpiSession::~MpiSession() = default;
int mpi_world_size() { return 1; }
bool built_with_mpi() { return false; }

SweepOutcome run_sweep_mpi(const SweepSpec&, const SweepOptions&, std::ostream&) {
  throw Error(launched_by_mpi()
                  ? "this photonsim was built without MPI: install libopenmpi-dev and rebuild (scripts/setup)"
                  : "run_sweep_mpi needs mpirun");
}

#endif

}  // namespace photonsim
