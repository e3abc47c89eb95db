// The trace tables' labels past four terms (docs/architecture.md, "Collective semantics",
// Labels): runs contiguous in ring order, never first..last across a gap.
#include <doctest/doctest.h>

#include <string>

#include "run_ringviz.h"

using ringviz::test::run_ringviz;

TEST_CASE("an eight-GPU ReduceScatter table writes long partial sums as ring runs, wrapping past GPU 7") {
  const auto run = run_ringviz({"trace", "--op", "reducescatter", "--gpus", "8", "--count", "8", "--format",
                                "markdown", "--backend", "cpu"});
  REQUIRE(run.exit_code == 0);
  // Slot 7 starts at GPU 7 (h) and travels on to a, b, c, d: after round 4 GPU 3 holds five terms.
  CHECK(run.out.find("h7..d7") != std::string::npos);
  // Three terms are still listed, in rank order.
  CHECK(run.out.find("a7+b7+h7") != std::string::npos);
  // The fully reduced chunks are whole rings, and no label bridges a gap with an ellipsis.
  CHECK(run.out.find("| GPU 0 | a1..h1 (chunk 1) |") != std::string::npos);
  CHECK(run.out.find("+\u2026+") == std::string::npos);
  // The head says once what a run means.
  CHECK(run.out.find("c2..e2 is a run of GPUs in ring order") != std::string::npos);
}

TEST_CASE("four GPUs list every term and need no word on runs") {
  const auto run = run_ringviz({"trace", "--gpus", "4", "--format", "markdown", "--backend", "cpu"});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("..") == std::string::npos);
  CHECK(run.out.find("a2+b2+c2+d2") != std::string::npos);
}

TEST_CASE("a long max names its function around the runs") {
  const auto run = run_ringviz({"trace", "--gpus", "6", "--count", "6", "--reduce", "max", "--format", "markdown",
                                "--backend", "cpu"});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("max(a0..f0)") != std::string::npos);
}
