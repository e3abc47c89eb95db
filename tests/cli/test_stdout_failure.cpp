// A command whose standard output cannot be written (a full disk, /dev/full) fails with exit
// 1 and one line saying why, instead of exiting 0 with nothing written.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "run_ringviz.h"

using ringviz::test::lines_of;
using ringviz::test::run_ringviz;

namespace {

void check_refused_by_full_device(const std::vector<std::string>& arguments) {
  std::string shown;
  for (const std::string& argument : arguments) shown += argument + " ";
  CAPTURE(shown);
  const auto run = run_ringviz(arguments, "/dev/full");
  CHECK(run.exit_code == 1);
  const auto lines = lines_of(run.err);
  REQUIRE(!lines.empty());
  CHECK(lines.back() == "ringviz: cannot write output: No space left on device");
}

}  // namespace

TEST_CASE("every subcommand's output to a full device exits 1 and says the output could not be written") {
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"trace"}, {"trace", "--format", "json"}, {"compare"}, {"memory"},
        {"train", "--steps", "2"}, {"bench", "-b", "1K", "-e", "1K", "-w", "0", "-i", "1"}})
    check_refused_by_full_device(arguments);
}

TEST_CASE("--help and --version to a full device exit 1, at the top level and for every subcommand") {
  check_refused_by_full_device({"--help"});
  check_refused_by_full_device({"--version"});
  for (const char* command : {"trace", "bench", "compare", "memory", "train", "record"}) {
    check_refused_by_full_device({command, "--help"});
    check_refused_by_full_device({command, "--version"});
  }
}

TEST_CASE("output to /dev/null is a success") {
  const auto run = run_ringviz({"compare"}, "/dev/null");
  CHECK(run.exit_code == 0);
  CHECK(run.err.empty());
}
