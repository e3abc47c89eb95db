#include "tests/capture/mpi_launch.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ringviz::test {

namespace {

std::vector<std::string> mpirun_words(int ranks, const std::vector<std::string>& arguments) {
  std::vector<std::string> words = {RINGVIZ_MPIRUN, "--oversubscribe", "-np", std::to_string(ranks), RINGVIZ_EXECUTABLE};
  words.insert(words.end(), arguments.begin(), arguments.end());
  return words;
}

using Clock = std::chrono::steady_clock;

}  // namespace

RunResult run_mpi(int ranks, const std::vector<std::string>& arguments) {
  return run_command(mpirun_words(ranks, arguments));
}

RunResult run_mpmd(const std::vector<std::vector<std::string>>& ranks) {
  std::vector<std::string> words = {RINGVIZ_MPIRUN, "--oversubscribe"};
  for (const std::vector<std::string>& arguments : ranks) {
    if (words.size() > 2) words.push_back(":");
    words.insert(words.end(), {"-np", "1", RINGVIZ_EXECUTABLE});
    words.insert(words.end(), arguments.begin(), arguments.end());
  }
  return run_command(words);
}

KilledRun run_mpi_and_kill_last_rank(int ranks, const std::vector<std::string>& arguments,
                                     const std::filesystem::path& pid_file) {
  std::vector<std::string> words = mpirun_words(ranks, arguments);
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  // The job's output is not looked at; the environment variable reaches every rank.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  ::setenv("RINGVIZ_CAPTURE_TEST_PIDFILE", pid_file.c_str(), 1);
  pid_t job = 0;
  const int spawned = posix_spawn(&job, argv[0], &actions, nullptr, argv.data(), environ);
  ::unsetenv("RINGVIZ_CAPTURE_TEST_PIDFILE");
  posix_spawn_file_actions_destroy(&actions);
  KilledRun run;
  if (spawned != 0) return run;

  const auto give_up = Clock::now() + std::chrono::seconds(60);
  int status = 0;
  bool ended = false;
  while (!std::filesystem::exists(pid_file) && Clock::now() < give_up) {
    if (::waitpid(job, &status, WNOHANG) == job) {
      ended = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pid_t rank = 0;
  if (!ended && (std::ifstream(pid_file) >> rank) && rank > 0) run.killed = ::kill(rank, SIGKILL) == 0;
  const auto killed_at = Clock::now();
  while (!ended && Clock::now() < killed_at + std::chrono::seconds(60)) {
    if (::waitpid(job, &status, WNOHANG) == job) ended = true;
    else std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!ended) {
    ::kill(job, SIGKILL);
    ::waitpid(job, &status, 0);
  }
  run.seconds_after_kill = std::chrono::duration<double>(Clock::now() - killed_at).count();
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

}  // namespace ringviz::test
