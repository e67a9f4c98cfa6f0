#include "sim/sweep/sweep_runner.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "core/error.h"
#include "sim/sweep/sweep_mpi.h"

namespace photonsim {

namespace {

std::string read_all(int fd) {
  std::string out;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got > 0) {
      out.append(buffer, static_cast<size_t>(got));
    } else if (got == 0 || errno != EINTR) {
      return out;
    }
  }
}

bool write_all_rows(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t put = ::write(fd, text.data() + done, text.size() - done);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    done += static_cast<size_t>(put);
  }
  return true;
}

class ProgressBar {
 public:
  ProgressBar(std::ostream& log, size_t total, bool enabled)
      : log_(log), total_(total), enabled_(enabled), start_(std::chrono::steady_clock::now()) {}
  void update(size_t done) {
    if (!enabled_ || total_ == 0) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const size_t width = 30, filled = width * done / total_;
    log_ << "\r[" << std::string(filled, '=') << std::string(width - filled, ' ') << "] " << done << "/" << total_;
    if (done > 0 && done < total_) {
      log_ << "  ETA " << static_cast<long>(elapsed / static_cast<double>(done) * static_cast<double>(total_ - done))
           << " s  ";
    } else {
      log_ << "  " << static_cast<long>(elapsed) << " s      ";
    }
    if (done == total_) log_ << "\n";
    log_.flush();
  }

 private:
  std::ostream& log_;
  size_t total_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
};

// The points in `jobs` threads; this thread records each answer as it comes.
// What every local way of running a sweep sets up first: the results so
// far (their notes logged), the pipeline, where outputs go, the progress bar.
struct LocalSweep {
  LocalSweep(const SweepSpec& spec, const SweepOptions& options, std::ostream& log)
      : results(spec, options.out_dir, options.resume),
        pipeline(options.memory ? &*options.memory : nullptr),
        outputs(sweep_outputs(options.out_dir)),
        progress(log, results.pending().size(), options.progress) {
    for (const std::string& note : results.notes()) log << "sweep: " << note << "\n";
    progress.update(0);
  }
  SweepResults results;
  const ExperimentPipeline pipeline;
  const std::vector<NamedPath> outputs;
  ProgressBar progress;
};

SweepOutcome run_in_process(const SweepSpec& spec, const SweepOptions& options, std::ostream& log) {
  LocalSweep sweep(spec, options, log);
  const std::vector<size_t>& pending = sweep.results.pending();
  std::mutex mutex;
  std::condition_variable answered;
  std::deque<std::pair<size_t, std::string>> answers;
  size_t next = 0;
  bool stop = false;  // a failed record (a full disk, say) ends the sweep
  const auto work = [&] {
    for (;;) {
      size_t index = 0;
      {
        const std::lock_guard<std::mutex> lock(mutex);
        if (stop || next >= pending.size()) return;
        index = pending[next++];
      }
      std::string answer = sweep_point_answer(spec, sweep.results.points()[index], sweep.pipeline, sweep.outputs);
      {
        const std::lock_guard<std::mutex> lock(mutex);
        answers.emplace_back(index, std::move(answer));
      }
      answered.notify_one();
    }
  };
  std::vector<std::thread> workers;
  const size_t threads = std::min(pending.size(), static_cast<size_t>(options.jobs));
  for (size_t t = 0; t < threads; ++t) workers.emplace_back(work);
  try {
    for (size_t finished = 0; finished < pending.size(); ++finished) {
      std::pair<size_t, std::string> answer;
      {
        std::unique_lock<std::mutex> lock(mutex);
        answered.wait(lock, [&] { return !answers.empty(); });
        answer = std::move(answers.front());
        answers.pop_front();
      }
      sweep.results.record(answer.first, answer.second, log, options.progress);
      sweep.progress.update(finished + 1);
    }
  } catch (...) {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    for (std::thread& w : workers) w.join();
    throw;
  }
  for (std::thread& w : workers) w.join();
  return sweep.results.outcome();
}

SweepOutcome run_local(const SweepSpec& spec, const SweepOptions& options, std::ostream& log) {
  LocalSweep sweep(spec, options, log);
  const std::vector<size_t>& pending = sweep.results.pending();
  struct Child {
    size_t point;
    int fd;
  };
  std::map<pid_t, Child> running;
  size_t next = 0, finished = 0;
  while (next < pending.size() || !running.empty()) {
    while (next < pending.size() && static_cast<int>(running.size()) < options.jobs) {
      int fds[2];
      if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
      const size_t index = pending[next++];
      log.flush();
      const pid_t pid = ::fork();
      if (pid < 0) throw Error(std::string("cannot start a sweep worker: ") + std::strerror(errno));
      if (pid == 0) {
        ::close(fds[0]);
        const bool sent =
            write_all_rows(fds[1], sweep_point_answer(spec, sweep.results.points()[index], sweep.pipeline, sweep.outputs));
        ::_exit(sent ? 0 : 2);
      }
      ::close(fds[1]);
      running[pid] = Child{index, fds[0]};
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("waiting for sweep workers: ") + std::strerror(errno));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const Child child = it->second;
    running.erase(it);
    std::string answer = read_all(child.fd);
    ::close(child.fd);
    if (WIFSIGNALED(status)) {
      answer = "error\nworker killed by signal " + std::to_string(WTERMSIG(status));
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      answer = "error\nworker failed";
    }
    sweep.results.record(child.point, answer, log, options.progress);
    sweep.progress.update(++finished);
  }
  return sweep.results.outcome();
}

}  // namespace

SweepOutcome run_sweep(const SweepSpec& spec, const SweepOptions& options, std::ostream& log) {
  if (options.jobs < 1) throw Error("--jobs must be at least 1, got " + std::to_string(options.jobs));
  // Under a launcher without MPI built in, every rank would write the same
  // file: run_sweep_mpi then says how to build with MPI instead.
  if (mpi_world_size() > 1 || (!built_with_mpi() && under_mpi_launcher())) return run_sweep_mpi(spec, options, log);
  return options.in_process ? run_in_process(spec, options, log) : run_local(spec, options, log);
}

}  // namespace photonsim
