// --help and --version work on the top level and on every subcommand, and exit 0.
#include <doctest/doctest.h>

#include "run_ringviz.h"

using ringviz::test::run_ringviz;

TEST_CASE("ringviz --help describes the subcommands and exits 0") {
  const auto run = run_ringviz({"--help"});
  CHECK(run.exit_code == 0);
  CHECK(run.out.find("trace") != std::string::npos);
}

TEST_CASE("ringviz --version prints the version and exits 0") {
  const auto run = run_ringviz({"--version"});
  CHECK(run.exit_code == 0);
  CHECK(run.out.rfind("ringviz ", 0) == 0);
}

TEST_CASE("ringviz trace --help lists the trace options and exits 0") {
  const auto run = run_ringviz({"trace", "--help"});
  CHECK(run.exit_code == 0);
  for (const char* option : {"--op", "--gpus", "--count", "--dtype", "--reduce", "--order", "--init",
                             "--backend", "--lang", "--format"}) {
    CAPTURE(option);
    CHECK(run.out.find(option) != std::string::npos);
  }
}

TEST_CASE("ringviz trace --version prints the version and exits 0") {
  const auto run = run_ringviz({"trace", "--version"});
  CHECK(run.exit_code == 0);
  CHECK(run.out.rfind("ringviz ", 0) == 0);
}
