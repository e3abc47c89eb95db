// `ringviz trace --op broadcast`: the root's slots walk down the chain, and the ops ringviz names
// but does not run (or not on the algorithm asked for) are refused with one line.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "run_ringviz.h"

using ringviz::test::check_refused;
using ringviz::test::markdown_table_after;
using ringviz::test::run_ringviz;
using ringviz::test::RunResult;

namespace {

RunResult broadcast_markdown(const std::string& lang = "en") {
  return run_ringviz({"trace", "--op", "broadcast", "--gpus", "4", "--count", "8", "--format", "markdown", "--lang", lang});
}

}  // namespace

TEST_CASE("a 4-GPU broadcast trace shows slot t-k leaving GPU k in round t and only what has arrived") {
  const RunResult run = broadcast_markdown();
  REQUIRE(run.exit_code == 0);
  CHECK(markdown_table_after(run.out, "### Round 2 (broadcast)") ==
        "| GPU | sends | receives | holds after round |\n"
        "|---|---|---|---|\n"
        "| GPU 0 | A1 → GPU 1 | — | A0, A1, A2, A3 |\n"
        "| GPU 1 | A0 → GPU 2 | A1 ← GPU 0 | A0, A1 |\n"
        "| GPU 2 | — | A0 ← GPU 1 | A0 |\n"
        "| GPU 3 | — | — | — |\n");
  CHECK(markdown_table_after(run.out, "### Round 6 (broadcast)") ==
        "| GPU | sends | receives | holds after round |\n"
        "|---|---|---|---|\n"
        "| GPU 0 | — | — | A0, A1, A2, A3 |\n"
        "| GPU 1 | — | — | A0, A1, A2, A3 |\n"
        "| GPU 2 | A3 → GPU 3 | — | A0, A1, A2, A3 |\n"
        "| GPU 3 | — | A3 ← GPU 2 | A0, A1, A2, A3 |\n");
  CHECK(run.out.find("### Round 7") == std::string::npos);  // 2N-2 rounds
  for (int gpu = 0; gpu < 4; ++gpu)
    CHECK(run.out.find("GPU " + std::to_string(gpu) + ": [1, 2, 3, 4, 5, 6, 7, 8]") != std::string::npos);
  // No reduction is named: a broadcast combines nothing.
  CHECK(run.out.find("reduce sum") == std::string::npos);
}

TEST_CASE("a broadcast trace counts count x size bytes sent by every GPU but the last") {
  const RunResult run = broadcast_markdown();
  REQUIRE(run.exit_code == 0);
  const std::string traffic = markdown_table_after(run.out, "### Traffic");
  CHECK(traffic.find("| GPU 0 | 32 | 0 |") != std::string::npos);
  CHECK(traffic.find("| GPU 1 | 32 | 32 |") != std::string::npos);
  CHECK(traffic.find("| GPU 3 | 0 | 32 |") != std::string::npos);
}

TEST_CASE("a broadcast trace reads in Chinese too") {
  const RunResult run = broadcast_markdown("zh");
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("根 GPU 0 持有") != std::string::npos);
  CHECK(run.out.find("第 2 轮（broadcast）") != std::string::npos);
}

TEST_CASE("broadcast with a reduction, or on an algorithm other than the ring, is refused with one line") {
  check_refused(run_ringviz({"trace", "--op", "broadcast", "--reduce", "max"}),
                "reduce: max combines values, but broadcast only copies them");
  check_refused(run_ringviz({"trace", "--op", "bcast", "--algo", "tree"}), "--algo tree: supports allreduce only");
  check_refused(run_ringviz({"trace", "--op", "alltoall", "--reduce", "max"}),
                "reduce: max combines values, but alltoall only copies them");
}

TEST_CASE("alltoall on an algorithm without it, and sendrecv, are refused with one line saying why") {
  check_refused(run_ringviz({"trace", "--op", "all-to-all", "--algo", "ring"}),
                "--algo ring: supports allgather, reducescatter, allreduce and broadcast only (direct support alltoall)");
  check_refused(run_ringviz({"trace", "--op", "sendrecv", "--gpus", "2"}),
                "--op sendrecv: a point-to-point transfer between two GPUs, which ringviz shows as a transfer");
}

TEST_CASE("on many GPUs a broadcast trace shortens what a GPU holds to its first and last chunks") {
  const RunResult run =
      run_ringviz({"trace", "--op", "broadcast", "--gpus", "20", "--count", "3", "--format", "markdown"});
  REQUIRE(run.exit_code == 0);
  const std::string round = markdown_table_after(run.out, "### Round 1 (broadcast)");
  CHECK(round.find("| GPU 0 | A0 → GPU 1 | — | A0, …, A18, A19 |") != std::string::npos);
  CHECK(round.find("| GPU 1 | — | A0 ← GPU 0 | A0 |") != std::string::npos);
  CHECK(round.find("| GPU 2 | — | — | — |") != std::string::npos);
}
