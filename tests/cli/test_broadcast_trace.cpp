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

TEST_CASE("--root 2 starts the chain at GPU 2: 2 -> 3 -> 0 -> 1, labels in GPU 2's capital, words naming it") {
  const RunResult run = run_ringviz(
      {"trace", "--op", "broadcast", "--root", "2", "--gpus", "4", "--count", "8", "--format", "markdown"});
  REQUIRE(run.exit_code == 0);
  CHECK(markdown_table_after(run.out, "### Round 2 (broadcast)") ==
        "| GPU | sends | receives | holds after round |\n"
        "|---|---|---|---|\n"
        "| GPU 0 | — | C0 ← GPU 3 | C0 |\n"
        "| GPU 1 | — | — | — |\n"
        "| GPU 2 | C1 → GPU 3 | — | C0, C1, C2, C3 |\n"
        "| GPU 3 | C0 → GPU 0 | C1 ← GPU 2 | C0, C1 |\n");
  const std::string traffic = markdown_table_after(run.out, "### Traffic");
  CHECK(traffic.find("| GPU 2 | 32 | 0 |") != std::string::npos);  // the root receives nothing
  CHECK(traffic.find("| GPU 1 | 0 | 32 |") != std::string::npos);  // the last in the chain sends nothing
  for (int gpu = 0; gpu < 4; ++gpu)
    CHECK(run.out.find("GPU " + std::to_string(gpu) + ": [17, 18, 19, 20, 21, 22, 23, 24]") != std::string::npos);
  CHECK(run.out.find("GPU 2, the root, holds 8 elements") != std::string::npos);
  CHECK(run.out.find("Ring Broadcast from GPU 2 down the chain 2 → 3 → 0 → 1") != std::string::npos);
  CHECK(run.out.find("the last GPU, 1, sends nothing") != std::string::npos);
  const RunResult zh = run_ringviz({"trace", "--op", "broadcast", "--root", "2", "--gpus", "4", "--count", "8",
                                    "--format", "markdown", "--lang", "zh"});
  REQUIRE(zh.exit_code == 0);
  CHECK(zh.out.find("根 GPU 2 持有") != std::string::npos);
  CHECK(zh.out.find("从 GPU 2 出发沿链 2 → 3 → 0 → 1") != std::string::npos);
  CHECK(zh.out.find("链尾的 GPU 1 不发送") != std::string::npos);
  // The JSON document carries it.
  const RunResult json = run_ringviz({"trace", "--op", "broadcast", "--root", "2", "--gpus", "4", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  CHECK(json.out.find("\"backend\": \"cpu\", \"root\": 2}") != std::string::npos);
}

TEST_CASE("--root outside the ring, or with an op that has none, is refused with one line naming both numbers") {
  check_refused(run_ringviz({"trace", "--op", "broadcast", "--root", "5", "--gpus", "5"}),
                "--root: 5 is not a GPU of a ring of 5 (--gpus); give 0 to 4");
  check_refused(run_ringviz({"trace", "--op", "broadcast", "--root", "-1", "--gpus", "3"}),
                "--root: -1 is not a GPU of a ring of 3 (--gpus); give 0 to 2");
  check_refused(run_ringviz({"trace", "--op", "broadcast", "--root", "two"}), "--root: 'two' is not a whole number");
  check_refused(run_ringviz({"trace", "--op", "allreduce", "--root", "1"}),
                "root: GPU 1 as the source, but allreduce has none; leave --root out (it applies to broadcast)");
  check_refused(run_ringviz({"compare", "--op", "broadcast", "--root", "8", "--gpus", "8"}),
                "--root: 8 is not a GPU of a ring of 8 (--gpus); give 0 to 7");
  CHECK(run_ringviz({"compare", "--op", "broadcast", "--root", "7", "--gpus", "8"}).exit_code == 0);
  CHECK(run_ringviz({"trace", "--op", "allreduce", "--root", "0"}).exit_code == 0);
}
