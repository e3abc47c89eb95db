// The source article's tables are the first acceptance test: `ringviz trace --format markdown` must
// print them row for row, in English and in Chinese.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "run_ringviz.h"

using ringviz::test::markdown_table_after;
using ringviz::test::run_ringviz;
using ringviz::test::RunResult;

namespace {

// The words that differ between the two languages; the rows themselves do not.
struct Wording {
  std::string lang;
  std::string round_heading_before;  // "### Round " / "### 第 "
  std::string round_heading_after;   // " (all-gather)" / " 轮（all-gather）"
  std::string round_header;
  std::string reduced_heading;
  std::string reduced_header;
  std::string chunk_before;  // " (chunk " / "（分片 "
  std::string chunk_after;   // ")" / "）"
};

const Wording kEnglish = {"en",
                          "### Round ",
                          " (all-gather)",
                          "| GPU | sends | receives | holds after round |\n|---|---|---|---|\n",
                          "### Fully reduced chunks",
                          "| GPU | holds (fully reduced) |\n|---|---|\n",
                          " (chunk ",
                          ")"};
const Wording kChinese = {"zh",
                          "### 第 ",
                          " 轮（all-gather）",
                          "| GPU | 发送 | 接收 | 轮后持有 |\n|---|---|---|---|\n",
                          "### 完全归约的分片",
                          "| GPU | 持有（已完全归约） |\n|---|---|\n",
                          "（分片 ",
                          "）"};

std::string round_heading(const Wording& words, int round, const std::string& phase) {
  std::string after = words.round_heading_after;
  after.replace(after.find("all-gather"), 10, phase);
  return words.round_heading_before + std::to_string(round) + after;
}

RunResult markdown_trace(const std::string& op, const std::string& order, const Wording& words) {
  return run_ringviz({"trace", "--op", op, "--gpus", "4", "--order", order, "--format", "markdown",
                      "--lang", words.lang});
}

std::string reduced_row(int gpu, const std::string& sum, int chunk, const Wording& words) {
  return "| GPU " + std::to_string(gpu) + " | " + sum + words.chunk_before + std::to_string(chunk) +
         words.chunk_after + " |\n";
}

}  // namespace

// Runs `body` once per language, each as its own SUBCASE.
template <class Body>
void in_both_languages(Body body) {
  SUBCASE("in English") { body(kEnglish); }
  SUBCASE("in Chinese") { body(kChinese); }
}

TEST_CASE("ring AllGather on four GPUs prints the source article's three rounds row for row") {
  in_both_languages([](const Wording& words) {
    const RunResult run = markdown_trace("allgather", "seed", words);
    REQUIRE(run.exit_code == 0);
    const std::vector<std::string> rounds = {
        "| GPU 0 | A → GPU 1 | D ← GPU 3 | A, D |\n"
        "| GPU 1 | B → GPU 2 | A ← GPU 0 | B, A |\n"
        "| GPU 2 | C → GPU 3 | B ← GPU 1 | C, B |\n"
        "| GPU 3 | D → GPU 0 | C ← GPU 2 | D, C |\n",
        "| GPU 0 | D → GPU 1 | C ← GPU 3 | A, D, C |\n"
        "| GPU 1 | A → GPU 2 | D ← GPU 0 | B, A, D |\n"
        "| GPU 2 | B → GPU 3 | A ← GPU 1 | C, B, A |\n"
        "| GPU 3 | C → GPU 0 | B ← GPU 2 | D, C, B |\n",
        "| GPU 0 | C → GPU 1 | B ← GPU 3 | A, B, C, D |\n"
        "| GPU 1 | D → GPU 2 | C ← GPU 0 | A, B, C, D |\n"
        "| GPU 2 | A → GPU 3 | D ← GPU 1 | A, B, C, D |\n"
        "| GPU 3 | B → GPU 0 | A ← GPU 2 | A, B, C, D |\n",
    };
    for (int round = 1; round <= 3; ++round) {
      CAPTURE(round);
      CHECK(markdown_table_after(run.out, round_heading(words, round, "all-gather")) ==
            words.round_header + rounds[static_cast<std::size_t>(round - 1)]);
    }
    // Three rounds and no more: N - 1 for four GPUs.
    CHECK(markdown_table_after(run.out, round_heading(words, 4, "all-gather")).empty());
  });
}

TEST_CASE("ring ReduceScatter in the source article's order leaves GPU r with chunk r + 1") {
  in_both_languages([](const Wording& words) {
    const RunResult run = markdown_trace("reducescatter", "seed", words);
    REQUIRE(run.exit_code == 0);
    CHECK(markdown_table_after(run.out, words.reduced_heading) ==
          words.reduced_header + reduced_row(0, "a1+b1+c1+d1", 1, words) +
              reduced_row(1, "a2+b2+c2+d2", 2, words) + reduced_row(2, "a3+b3+c3+d3", 3, words) +
              reduced_row(3, "a0+b0+c0+d0", 0, words));
  });
}

TEST_CASE("ring ReduceScatter in NCCL's order leaves GPU r with chunk r") {
  in_both_languages([](const Wording& words) {
    const RunResult run = markdown_trace("reducescatter", "nccl", words);
    REQUIRE(run.exit_code == 0);
    CHECK(markdown_table_after(run.out, words.reduced_heading) ==
          words.reduced_header + reduced_row(0, "a0+b0+c0+d0", 0, words) +
              reduced_row(1, "a1+b1+c1+d1", 1, words) + reduced_row(2, "a2+b2+c2+d2", 2, words) +
              reduced_row(3, "a3+b3+c3+d3", 3, words));
  });
}

TEST_CASE("chunk 0 gathers one term per round on its way around the ring, as the source article traces it") {
  const RunResult run = markdown_trace("reducescatter", "seed", kEnglish);
  REQUIRE(run.exit_code == 0);
  // Round k: GPU k-1 passes the partial sum on and GPU k folds its own chunk 0 into it.
  const std::string round1 = markdown_table_after(run.out, "### Round 1 (reduce-scatter)");
  const std::string round2 = markdown_table_after(run.out, "### Round 2 (reduce-scatter)");
  const std::string round3 = markdown_table_after(run.out, "### Round 3 (reduce-scatter)");
  CHECK(round1.find("| GPU 0 | a0 → GPU 1 |") != std::string::npos);
  CHECK(round1.find("| GPU 1 | b1 → GPU 2 | a0 ← GPU 0 | a0+b0, b1, b2, b3 |") != std::string::npos);
  CHECK(round2.find("| GPU 2 | c1+b1 → GPU 3") == std::string::npos);  // sums are in rank order
  CHECK(round2.find("| GPU 2 | b1+c1 → GPU 3 | a0+b0 ← GPU 1 | a0+b0+c0, b1+c1, c2, c3 |") !=
        std::string::npos);
  CHECK(round3.find("| GPU 3 | b1+c1+d1 → GPU 0 | a0+b0+c0 ← GPU 2 | a0+b0+c0+d0,") != std::string::npos);
}

TEST_CASE("ring AllReduce runs the reduce-scatter pass, then the all-gather pass") {
  const RunResult run = markdown_trace("allreduce", "seed", kEnglish);
  REQUIRE(run.exit_code == 0);
  CHECK_FALSE(markdown_table_after(run.out, "### Round 3 (reduce-scatter)").empty());
  CHECK_FALSE(markdown_table_after(run.out, "### Round 4 (all-gather)").empty());
  CHECK_FALSE(markdown_table_after(run.out, "### Round 6 (all-gather)").empty());
  CHECK(markdown_table_after(run.out, "### Round 7 (all-gather)").empty());
  // The all-gather pass starts from the chunk each GPU completed.
  CHECK(markdown_table_after(run.out, "### Round 4 (all-gather)")
            .find("| GPU 0 | a1+b1+c1+d1 → GPU 1 | a0+b0+c0+d0 ← GPU 3 |") != std::string::npos);
}
