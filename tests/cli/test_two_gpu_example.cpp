// The source article's opening example: two GPUs holding [1, 2, 3, 4] and [5, 6, 7, 8].
#include <doctest/doctest.h>

#include "json_trace.h"
#include "run_ringviz.h"

using ringviz::test::json_trace;
using ringviz::test::rows;

TEST_CASE("the two-GPU example starts from [1, 2, 3, 4] and [5, 6, 7, 8]") {
  const auto trace = json_trace({"--op", "allreduce", "--gpus", "2", "--count", "4", "--init", "seed"});
  CHECK(trace["initial"] == rows({{1, 2, 3, 4}, {5, 6, 7, 8}}));
}

TEST_CASE("AllReduce of the two-GPU example gives [6, 8, 10, 12] on both GPUs") {
  const auto trace = json_trace({"--op", "allreduce", "--gpus", "2", "--count", "4", "--init", "seed"});
  CHECK(trace["outputs"] == rows({{6, 8, 10, 12}, {6, 8, 10, 12}}));
}

TEST_CASE("AllGather of the two-GPU example gives [1 ... 8] on both GPUs") {
  const auto trace = json_trace({"--op", "allgather", "--gpus", "2", "--count", "4", "--init", "seed"});
  CHECK(trace["outputs"] == rows({{1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8}}));
}

TEST_CASE("ReduceScatter of the two-GPU example in NCCL's order gives GPU 0 [6, 8] and GPU 1 [10, 12]") {
  const auto trace = json_trace(
      {"--op", "reducescatter", "--gpus", "2", "--count", "4", "--init", "seed", "--order", "nccl"});
  CHECK(trace["outputs"] == rows({{6, 8}, {10, 12}}));
}

TEST_CASE("the two-GPU example prints each GPU's output in the table and Markdown formats") {
  for (const char* format : {"table", "markdown"}) {
    CAPTURE(format);
    const auto run = ringviz::test::run_ringviz(
        {"trace", "--gpus", "2", "--count", "4", "--init", "seed", "--format", format});
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.find("GPU 0: [6, 8, 10, 12]\n") != std::string::npos);
    CHECK(run.out.find("GPU 1: [6, 8, 10, 12]\n") != std::string::npos);
  }
}

TEST_CASE("a trace with --reduce max names max(a0,b0) in its legend and tables, never a sum") {
  const ringviz::test::RunResult run =
      ringviz::test::run_ringviz({"trace", "--gpus", "2", "--count", "2", "--reduce", "max"});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("max(a0,b0) is the larger of GPU 0's and GPU 1's chunk 0") != std::string::npos);
  CHECK(run.out.find("is the sum") == std::string::npos);
  CHECK(run.out.find("a0+b0") == std::string::npos);
}
