// Hostile input (docs/architecture.md, "Reading input files"): values that do not fit, numbers
// beyond a double, folders given as files and control characters all end in exit 2 and one
// stderr line that names the file position and shows what the user wrote escaped.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "run_ringviz.h"

using ringviz::test::lines_of;
using ringviz::test::run_ringviz;
using ringviz::test::RunResult;
using ringviz::test::check_refused;
using ringviz::test::TempDir;

namespace {

RunResult trace_init(const std::string& init, const std::string& dtype = "f32") {
  return run_ringviz({"trace", "--gpus", "2", "--count", "2", "--dtype", dtype, "--init", init});
}

}  // namespace

TEST_CASE("an init value out of range for i32 is refused with the file, line, column, element and range") {
  TempDir dir;
  const std::string path = dir.write("wide.json", "[[1, 2],\n [3, 3000000000]]");
  check_refused(trace_init("file:" + path, "i32"),
                path + ":2:6: [1][1] (GPU 1, element 1): 3000000000 does not fit i32 "
                       "(whole numbers from -2147483648 to 2147483647)");
}

TEST_CASE("a number beyond a double in an init file is an input error at its position, not a library message") {
  TempDir dir;
  const std::string path = dir.write("huge.json", "[[1, 1e400], [3, 4]]");
  check_refused(trace_init("file:" + path), path + ":1:6: 1e400 is too large for a number");
}

TEST_CASE("a folder given as the init file is refused as a folder") {
  TempDir dir;
  check_refused(trace_init("file:" + dir.path().string()), ": is a directory");
}

TEST_CASE("an init file nested 100000 levels deep is refused with the depth limit") {
  TempDir dir;
  const std::string path = dir.write("deep.json", std::string(100000, '[') + std::string(100000, ']'));
  check_refused(trace_init("file:" + path), path + ":1:65: nested more than 64 levels deep");
}

TEST_CASE("control characters and invalid UTF-8 in a flag value are escaped in the message") {
  const RunResult run = trace_init("file:/nonexistent/a\x1b[31m\nb\xff.json");
  check_refused(run, "/nonexistent/a\\x1b[31m\\nb\\xff.json: cannot be opened");
  CHECK(run.err.find('\x1b') == std::string::npos);
  CHECK(run.err.find("\xff") == std::string::npos);

  const RunResult op = run_ringviz({"trace", "--op", "all\x1b]0;title\x07reduce"});
  INFO("stderr: " << op.err);
  CHECK(op.exit_code == 2);
  CHECK(op.err.find("all\\x1b]0;title\\x07reduce") != std::string::npos);
  CHECK(op.err.find('\x1b') == std::string::npos);
}

TEST_CASE("control characters inside a string of an init file are escaped in the message") {
  TempDir dir;
  const std::string path = dir.write("control.json", "[[1, \"\\u001b[2J\"], [3, 4]]");
  const RunResult run = trace_init("file:" + path);
  check_refused(run, "found \"\\x1b[2J\"");
  CHECK(run.err.find('\x1b') == std::string::npos);
}

TEST_CASE("a FIFO given as the init file is refused at once, not waited on") {
  TempDir dir;
  const std::filesystem::path fifo = dir.path() / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  check_refused(trace_init("file:" + fifo.string()), fifo.string() + ": is not a regular file (a FIFO); give a file");
}

TEST_CASE("a 5000-digit number in an init file is echoed shortened, on one short line") {
  TempDir dir;
  const std::string path = dir.write("long.json", "[[1, 1" + std::string(5000, '2') + "], [3, 4]]");
  const RunResult run = trace_init("file:" + path, "i64");
  check_refused(run, "1" + std::string(39, '2') + "…");
  CHECK(run.err.size() < 200);
}

TEST_CASE("a tiny value that underflows to zero is refused for i32 like 1e-50") {
  TempDir dir;
  for (const std::string value : {"1e-50", "1e-400", "1e-99999999999"}) {
    const std::string path = dir.write("tiny.json", "[[1, " + value + "], [3, 4]]");
    check_refused(trace_init("file:" + path, "i32"), value + " does not fit i32");
  }
}
