#include "run_ringviz.h"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <system_error>

extern char** environ;

namespace ringviz::test {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// Drains both pipes together: reading one to the end first could deadlock once the child
// fills the other.
void read_both(int out_fd, int err_fd, std::string& out, std::string& err) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&out, &err};
  int open_count = 2;
  char buffer[65536];
  while (open_count > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      fail("poll");
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t got = read(fds[i].fd, buffer, sizeof buffer);
      if (got > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_count;
      }
    }
  }
}

RunResult run_program(std::vector<std::string> argv_text, const std::string& stdout_file) {
  std::vector<char*> argv;
  for (std::string& argument : argv_text) argv.push_back(argument.data());
  argv.push_back(nullptr);

  int out_pipe[2];
  int err_pipe[2];
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) fail("pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  if (!stdout_file.empty())
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
    posix_spawn_file_actions_addclose(&actions, fd);

  pid_t child = 0;
  const int spawned = posix_spawn(&child, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawned != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    errno = spawned;
    fail(std::string("posix_spawn ") + argv[0]);
  }

  RunResult result;
  read_both(out_pipe[0], err_pipe[0], result.out, result.err);
  int status = 0;
  rusage usage{};
  while (wait4(child, &status, 0, &usage) < 0)
    if (errno != EINTR) fail("wait4");
  result.peak_rss_kib = usage.ru_maxrss;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace

RunResult run_ringviz(const std::vector<std::string>& arguments, const std::string& stdout_file) {
  std::vector<std::string> argv_text = {RINGVIZ_EXECUTABLE};
  argv_text.insert(argv_text.end(), arguments.begin(), arguments.end());
  return run_program(std::move(argv_text), stdout_file);
}

RunResult run_command(std::vector<std::string> argv) { return run_program(std::move(argv), ""); }

RunResult run_ringviz_with_address_limit(std::uint64_t limit_kib, const std::vector<std::string>& arguments) {
  std::vector<std::string> argv_text = {"/bin/sh", "-c", "ulimit -v " + std::to_string(limit_kib) + R"( && exec "$0" "$@")",
                                        RINGVIZ_EXECUTABLE};
  argv_text.insert(argv_text.end(), arguments.begin(), arguments.end());
  return run_program(std::move(argv_text), "");
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string markdown_table_after(const std::string& markdown, const std::string& heading) {
  const std::vector<std::string> lines = lines_of(markdown);
  std::size_t i = 0;
  while (i < lines.size() && lines[i] != heading) ++i;
  while (i < lines.size() && (lines[i].empty() || lines[i][0] != '|')) ++i;
  std::string table;
  for (; i < lines.size() && !lines[i].empty() && lines[i][0] == '|'; ++i) table += lines[i] + "\n";
  return table;
}

std::size_t terminal_columns(const std::string& text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    char32_t point = length == 1 ? lead : lead & (0xFF >> (length + 1));
    for (std::size_t k = 1; k < length && i + k < text.size(); ++k)
      point = (point << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    width += point >= 0x2E80 && point != 0xFFFD ? 2 : 1;
    i += length;
  }
  return width;
}

void check_refused(const RunResult& run, const std::string& expected_part) {
  INFO("stderr: " << run.err);
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  CHECK(lines_of(run.err).size() == 1);
  CHECK(run.err.find(expected_part) != std::string::npos);
  CHECK(run.err.find("json.exception") == std::string::npos);
}

}  // namespace ringviz::test
