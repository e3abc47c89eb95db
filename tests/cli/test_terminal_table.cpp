// The default format lines columns up on a terminal, where a Chinese character takes two
// columns.
#include <doctest/doctest.h>

#include <string>

#include "run_ringviz.h"

using ringviz::test::lines_of;
using ringviz::test::terminal_columns;
using ringviz::test::run_ringviz;

namespace {

// The terminal column where `cell` starts on the first line that contains it.
std::size_t column_of(const std::string& output, const std::string& cell) {
  for (const std::string& line : lines_of(output)) {
    const std::size_t at = line.find(cell);
    if (at != std::string::npos) return terminal_columns(line.substr(0, at));
  }
  FAIL("no line contains " << cell);
  return 0;
}

}  // namespace

TEST_CASE("the table format is the default and needs no Markdown pipes") {
  const auto run = run_ringviz({"trace", "--op", "allgather", "--gpus", "4"});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("| GPU 0 |") == std::string::npos);
  CHECK(run.out.find("GPU 0  A → GPU 1  D ← GPU 3  A, D\n") != std::string::npos);
}

TEST_CASE("Chinese column headers line up with their columns on a terminal") {
  const auto run = run_ringviz({"trace", "--op", "allgather", "--gpus", "4", "--lang", "zh"});
  REQUIRE(run.exit_code == 0);
  CHECK(column_of(run.out, "发送") == column_of(run.out, "A → GPU 1"));
  CHECK(column_of(run.out, "接收") == column_of(run.out, "D ← GPU 3"));
  CHECK(column_of(run.out, "轮后持有") == column_of(run.out, "A, D"));
}
