// Quiet by default: a successful run says nothing on stderr, even where `--backend auto` fell
// back to the CPU (no NVIDIA driver is the usual case, not a problem); --verbose says why, once.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "run_ringviz.h"

using ringviz::test::run_ringviz;
using ringviz::test::RunResult;

namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

// Each subcommand that selects a backend, small enough to take well under a second, and the
// text its output has when it ran on the CPU.
struct BackendRun {
  std::vector<std::string> arguments;
  std::string cpu_marker;
};

std::vector<BackendRun> backend_runs() {
  return {{{"trace", "--gpus", "3", "--count", "6", "--format", "json"}, "\"backend\": \"cpu\""},
          {{"bench", "-b", "1K", "-e", "1K", "-w", "0", "-i", "1"}, "# backend cpu"},
          {{"train", "--steps", "2", "--gpus", "2"}, "(cpu backend)"}};
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

}  // namespace

TEST_CASE("without --verbose a successful run prints nothing on stderr, whichever backend it ran on") {
  for (const BackendRun& run : backend_runs()) {
    CAPTURE(joined(run.arguments));
    const RunResult result = run_ringviz(run.arguments);
    CHECK(result.exit_code == 0);
    CHECK(result.err.empty());
    CHECK_FALSE(result.out.empty());
  }
}

TEST_CASE("with --verbose the CPU fallback is said exactly once, on stderr") {
  for (BackendRun run : backend_runs()) {
    run.arguments.push_back("--verbose");
    CAPTURE(joined(run.arguments));
    const RunResult result = run_ringviz(run.arguments);
    CHECK(result.exit_code == 0);
    CAPTURE(result.err);
    if (result.out.find(run.cpu_marker) != std::string::npos) {
      // The CPU ran it although auto was asked for: one line, naming the fallback and why.
      CHECK(occurrences(result.err, "using the CPU backend: ") == 1);
      CHECK(occurrences(result.err, "\n") == 1);
      CHECK(result.err.rfind("ringviz: using the CPU backend: ", 0) == 0);
    } else {
      CHECK(result.err.empty());  // CUDA ran it: nothing to explain
    }
  }
}

TEST_CASE("--backend cpu asked for the CPU: --verbose has nothing to say") {
  const RunResult result = run_ringviz({"trace", "--backend", "cpu", "--verbose"});
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
}

TEST_CASE("bad input with --verbose is still the one error line") {
  const RunResult result = run_ringviz({"trace", "--gpus", "0", "--verbose"});
  CHECK(result.exit_code == 2);
  CHECK(occurrences(result.err, "\n") == 1);
  CHECK(result.err.find("using the CPU backend") == std::string::npos);
}
