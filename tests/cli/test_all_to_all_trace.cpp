// `ringviz trace --op alltoall`: without --algo it runs on direct, pairs of GPUs swap the blocks
// meant for each other round by round, and every cell names the sender and the block's GPU.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "run_ringviz.h"

using ringviz::test::markdown_table_after;
using ringviz::test::run_ringviz;
using ringviz::test::RunResult;

namespace {

RunResult all_to_all_markdown(const std::string& gpus, const std::string& lang = "en") {
  return run_ringviz({"trace", "--op", "alltoall", "--gpus", gpus, "--count", "8", "--format", "markdown", "--lang", lang});
}

}  // namespace

TEST_CASE("a 4-GPU alltoall trace swaps one pair's blocks per GPU per round and ends with block r of every GPU") {
  const RunResult run = all_to_all_markdown("4");
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("Each GPU holds 4 blocks of 2 elements each, block j meant for GPU j.") != std::string::npos);
  CHECK(markdown_table_after(run.out, "### Round 1 (all-to-all)") ==
        "| GPU | sends | receives | holds after round |\n"
        "|---|---|---|---|\n"
        "| GPU 0 | a3 → GPU 3 | d0 ← GPU 3 | a0, a1, a2, d0 |\n"
        "| GPU 1 | b2 → GPU 2 | c1 ← GPU 2 | b0, b1, c1, b3 |\n"
        "| GPU 2 | c1 → GPU 1 | b2 ← GPU 1 | c0, b2, c2, c3 |\n"
        "| GPU 3 | d0 → GPU 0 | a3 ← GPU 0 | a3, d1, d2, d3 |\n");
  CHECK(markdown_table_after(run.out, "### Round 3 (all-to-all)") ==
        "| GPU | sends | receives | holds after round |\n"
        "|---|---|---|---|\n"
        "| GPU 0 | a1 → GPU 1 | b0 ← GPU 1 | a0, b0, c0, d0 |\n"
        "| GPU 1 | b0 → GPU 0 | a1 ← GPU 0 | a1, b1, c1, d1 |\n"
        "| GPU 2 | c3 → GPU 3 | d2 ← GPU 3 | a2, b2, c2, d2 |\n"
        "| GPU 3 | d2 → GPU 2 | c3 ← GPU 2 | a3, b3, c3, d3 |\n");
  CHECK(run.out.find("### Round 4") == std::string::npos);  // N - 1 rounds
  // --init seed: GPU r's element i is 8r + i + 1, so GPU 1 ends with every GPU's block 1.
  CHECK(run.out.find("GPU 1: [3, 4, 11, 12, 19, 20, 27, 28]") != std::string::npos);
}

TEST_CASE("on 5 GPUs an alltoall takes 5 rounds, one GPU waiting in each") {
  const RunResult run = all_to_all_markdown("5");
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("### Round 5 (all-to-all)") != std::string::npos);
  CHECK(run.out.find("### Round 6") == std::string::npos);
  // count 8 on 5 GPUs: blocks of one element, the last 3 elements take no part.
  CHECK(run.out.find("the last 3 elements take no part") != std::string::npos);
  CHECK(markdown_table_after(run.out, "### Round 1 (all-to-all)").find("| GPU 0 | — | — |") != std::string::npos);
}

TEST_CASE("an alltoall trace reads in Chinese too") {
  const RunResult run = all_to_all_markdown("4", "zh");
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("每张 GPU 持有 4 个块") != std::string::npos);
  CHECK(run.out.find("第 1 轮（all-to-all）") != std::string::npos);
}

TEST_CASE("--splits makes the blocks uneven: each GPU ends with its column, in sender order") {
  const RunResult run = run_ringviz({"trace", "--op", "alltoall", "--gpus", "3", "--splits", "2,3,0/1,0,4/0,2,1"});
  REQUIRE(run.exit_code == 0);
  // Seed inputs: GPU 0 [1..5], GPU 1 [6..10], GPU 2 [11..15] (count 5, the largest row's sum),
  // of which GPU 2 sends its first 3.
  CHECK(run.out.find("GPU 0: [1, 2, 6]") != std::string::npos);
  CHECK(run.out.find("GPU 1: [3, 4, 5, 11, 12]") != std::string::npos);
  CHECK(run.out.find("GPU 2: [7, 8, 9, 10, 13]") != std::string::npos);
  CHECK(run.out.find("a slot for each of the 9 (sender, receiver) pairs") != std::string::npos);
}

TEST_CASE("a split table that does not fit, and bench with one, are refused with one line") {
  const auto refusal = [](const std::vector<std::string>& arguments) {
    const RunResult run = run_ringviz(arguments);
    CHECK(run.exit_code == 2);
    CHECK(run.out.empty());
    return run.err;
  };
  CHECK(refusal({"trace", "--op", "alltoall", "--gpus", "3", "--splits", "2,3/1,0,4/0,2,1"}) ==
        "ringviz: --splits: row 0 has 2 blocks; give 3, one per GPU (e.g. 3,1/0,2 on 2 GPUs: row s lists what GPU s "
        "sends to GPU 0, 1, ...)\n");
  CHECK(refusal({"trace", "--op", "alltoall", "--gpus", "3", "--splits", "2,3,0/1,0,4/0,2,1", "--count", "4"}) ==
        "ringviz: splits: GPU 0 sends 5 elements in all, but starts with 4 (count); give a count of at least every "
        "row's sum\n");
  CHECK(refusal({"trace", "--gpus", "3", "--splits", "2,3,0/1,0,4/0,2,1"}) ==
        "ringviz: splits: uneven block sizes apply to alltoall, not allreduce; leave --splits out\n");
  CHECK(refusal({"bench", "--op", "alltoall", "--gpus", "3", "--splits", "2,3,0/1,0,4/0,2,1"}) ==
        "ringviz: --splits: the splits fix every block's size, and bench changes the size with every row; use trace or "
        "capture for an uneven exchange, or drop --splits to time even ones\n");
}
