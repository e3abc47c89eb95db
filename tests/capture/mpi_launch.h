#pragma once
// Starting the ringviz executable under mpirun, as a user does, on this one machine.
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/run_ringviz.h"

namespace ringviz::test {

// mpirun --oversubscribe -np `ranks` ringviz `arguments`...
RunResult run_mpi(int ranks, const std::vector<std::string>& arguments);
// mpirun's MPMD form: one rank per argument list, joined by ':'.
RunResult run_mpmd(const std::vector<std::vector<std::string>>& ranks);

struct KilledRun {
  bool killed = false;  // the last rank announced itself (RINGVIZ_CAPTURE_TEST_PIDFILE) and was killed
  int exit_code = -1;   // mpirun's
  double seconds_after_kill = 0;
};
// Starts the job, waits for the last rank to write its pid to `pid_file`, kills that process
// with SIGKILL and waits (at most a minute) for mpirun to end.
KilledRun run_mpi_and_kill_last_rank(int ranks, const std::vector<std::string>& arguments,
                                     const std::filesystem::path& pid_file);

}  // namespace ringviz::test
