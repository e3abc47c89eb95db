// `ringviz trace --slices S --channels C` (docs/architecture.md, "Pipelined schedules"): the
// JSON names every transfer's step, the readable formats say it, and lock-step documents keep
// exactly the shape they had.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "json_trace.h"

using ringviz::test::json_trace;
using Json = nlohmann::json;

namespace {

std::filesystem::path golden_dir() {
  return std::filesystem::path(RINGVIZ_TRACE_CORPUS_DIR).parent_path() / "pipelined_golden";
}

std::string read_golden(const std::string& name) {
  std::ifstream in(golden_dir() / name, std::ios::binary);
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

}  // namespace

TEST_CASE("a pipelined JSON trace names its shape, and every transfer its channel, round, slice and phase") {
  const Json trace = json_trace({"--gpus", "4", "--count", "16", "--slices", "2", "--channels", "2"});
  CHECK(trace["config"]["channels"] == 2);
  CHECK(trace["config"]["slices"] == 2);
  CHECK(trace["pipeline"] == Json{{"channels", 2}, {"slices", 2}, {"rounds", 6}, {"waves", 7}});
  REQUIRE(trace["rounds"].size() == 7);
  std::set<std::tuple<int, int, int, int>> steps;  // channel, round, slice, src
  std::int64_t bytes = 0;
  for (const Json& wave : trace["rounds"])
    for (const Json& transfer : wave["transfers"]) {
      const int round = transfer["round"];
      const int slice = transfer["slice"];
      // Wave w carries slice k of the source article's round w - k.
      CHECK(round + slice == wave["round"].get<int>());
      CHECK(transfer["phase"] == (round <= 3 ? "reduce-scatter" : "all-gather"));
      // 16 elements in 4 slots of 4, each cut into 2 channels of 2 slices: one f32 per piece.
      CHECK(transfer["bytes"] == 4);
      bytes += transfer["bytes"].get<std::int64_t>();
      CHECK(steps.insert({transfer["channel"], round, slice, transfer["src"]}).second);
    }
  CHECK(steps.size() == 2 * 6 * 2 * 4);
  // The pipeline moves the source article's bytes, only in smaller pieces.
  const Json lock_step = json_trace({"--gpus", "4", "--count", "16"});
  std::int64_t lock_step_bytes = 0;
  for (const Json& sent : lock_step["bytes_sent"]) lock_step_bytes += sent.get<std::int64_t>();
  CHECK(bytes == lock_step_bytes);
  CHECK(trace["outputs"] == lock_step["outputs"]);
}

TEST_CASE("a lock-step JSON trace carries no pipeline fields") {
  const Json trace = json_trace({"--gpus", "3", "--count", "7", "--slices", "1", "--channels", "1"});
  CHECK_FALSE(trace.contains("pipeline"));
  CHECK_FALSE(trace["config"].contains("channels"));
  CHECK_FALSE(trace["config"].contains("slices"));
  for (const Json& round : trace["rounds"])
    for (const Json& transfer : round["transfers"]) CHECK_FALSE(transfer.contains("channel"));
}

TEST_CASE("the pipelined README example traces to the recorded JSON bytes") {
  const auto run = ringviz::test::run_ringviz({"trace", "--gpus", "4", "--count", "16", "--slices", "2", "--channels",
                                               "2", "--format", "json", "--backend", "cpu"});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out == read_golden("allreduce_gpus4_count16_slices2_channels2.json"));
  const auto gather = ringviz::test::run_ringviz({"trace", "--op", "allgather", "--gpus", "3", "--count", "5",
                                                  "--slices", "3", "--format", "json", "--backend", "cpu"});
  REQUIRE(gather.exit_code == 0);
  CHECK(gather.out == read_golden("allgather_gpus3_count5_slices3.json"));
}

TEST_CASE("the table and Markdown traces say each pipelined transfer's channel, round and slice") {
  for (const char* format : {"table", "markdown"}) {
    CAPTURE(format);
    const auto run = ringviz::test::run_ringviz({"trace", "--gpus", "3", "--count", "6", "--slices", "2",
                                                 "--channels", "2", "--format", format, "--backend", "cpu"});
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.find("[ch 1 · round 2 · slice 0]") != std::string::npos);
  }
}

TEST_CASE("a pipelined table calls its steps waves and each transfer's own step a round") {
  const auto run = ringviz::test::run_ringviz({"trace", "--gpus", "3", "--count", "6", "--slices", "2", "--format",
                                               "markdown", "--backend", "cpu"});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("### Wave 1 (reduce-scatter)") != std::string::npos);
  CHECK(run.out.find("### Round 1") == std::string::npos);
  CHECK(run.out.find("Values after wave 1:") != std::string::npos);
  CHECK(run.out.find("| holds after wave |") != std::string::npos);
  CHECK(run.out.find("holds after round") == std::string::npos);
  CHECK(run.out.find("[ch 0 · round 1 · slice 0]") != std::string::npos);
  const auto lock_step = ringviz::test::run_ringviz({"trace", "--gpus", "3", "--count", "6", "--format", "markdown",
                                                     "--backend", "cpu"});
  REQUIRE(lock_step.exit_code == 0);
  CHECK(lock_step.out.find("### Round 1 (reduce-scatter)") != std::string::npos);
  CHECK(lock_step.out.find("Wave") == std::string::npos);
}

TEST_CASE("a pipeline whose count leaves pieces empty says so in the table head, with the count that fills them") {
  // 4 GPUs x 2 channels x 4 slices = 32 pieces of 2-element slots: 24 hold nothing.
  const auto table = ringviz::test::run_ringviz({"trace", "--gpus", "4", "--count", "8", "--slices", "4",
                                                 "--channels", "2", "--backend", "cpu"});
  REQUIRE(table.exit_code == 0);
  const std::size_t notice = table.out.find("24 of 32 pieces hold no elements");
  CHECK(notice != std::string::npos);
  CHECK(notice < table.out.find("Inputs"));
  const auto sparse = ringviz::test::run_ringviz({"trace", "--gpus", "4", "--count", "8", "--slices", "4",
                                                  "--channels", "2", "--backend", "cpu", "--format", "markdown"});
  REQUIRE(sparse.exit_code == 0);
  CHECK(sparse.out.find("--count 32 fills every piece") != std::string::npos);
  // An empty piece's transfer carries no value to name.
  CHECK(sparse.out.find("0 B [ch 0 · round 1 · slice 1] → GPU 1") != std::string::npos);
  CHECK(sparse.out.find("a0 [ch 0 · round 1 · slice 0] → GPU 1") != std::string::npos);
  const auto chinese = ringviz::test::run_ringviz({"trace", "--gpus", "4", "--count", "8", "--slices", "4",
                                                   "--channels", "2", "--backend", "cpu", "--lang", "zh",
                                                   "--format", "markdown"});
  REQUIRE(chinese.exit_code == 0);
  CHECK(chinese.out.find("有 24 个片段没有元素（共 32 个）") != std::string::npos);
  for (const char* count : {"32", "100"}) {
    const auto full = ringviz::test::run_ringviz({"trace", "--gpus", "4", "--count", count, "--slices", "4",
                                                  "--channels", "2", "--backend", "cpu"});
    REQUIRE(full.exit_code == 0);
    CHECK(full.out.find("hold no elements") == std::string::npos);
  }
  // Lock-step, a short count leaves slots empty, not pieces: nothing to say.
  const auto lock_step = ringviz::test::run_ringviz({"trace", "--gpus", "4", "--count", "2", "--backend", "cpu"});
  REQUIRE(lock_step.exit_code == 0);
  CHECK(lock_step.out.find("hold no elements") == std::string::npos);
}

TEST_CASE("--slices and --channels out of range are refused naming the flag") {
  const auto slices = ringviz::test::run_ringviz({"trace", "--slices", "0"});
  CHECK(slices.exit_code == 2);
  CHECK(slices.err.find("--slices") != std::string::npos);
  const auto channels = ringviz::test::run_ringviz({"trace", "--channels", "33"});
  CHECK(channels.exit_code == 2);
  CHECK(channels.err.find("--channels: 33 is out of range (1 to 32)") != std::string::npos);
}

TEST_CASE("a lock-step bidirectional ring's table tells rounds, names each transfer's half and holds half by half") {
  const auto run = ringviz::test::run_ringviz({"trace", "--algo", "bidir-ring", "--gpus", "4", "--count", "8",
                                               "--format", "markdown", "--backend", "cpu"});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("### Round 2 (reduce-scatter)") != std::string::npos);
  CHECK(run.out.find("Wave") == std::string::npos);
  CHECK(run.out.find("[ch ") == std::string::npos);
  // Round 1: GPU 0's clockwise half of slot 0 to GPU 1, GPU 2's counter-clockwise half of slot 0 too.
  CHECK(run.out.find("a0 [clockwise] → GPU 1") != std::string::npos);
  CHECK(run.out.find("c0 [counter-clockwise] → GPU 1") != std::string::npos);
  // What GPU 1 holds after round 1: its slot 0 in two halves that differ (Markdown escapes the bar).
  CHECK(run.out.find("| GPU 1 | b1 [clockwise] → GPU 2; b3 [counter-clockwise] → GPU 0 | a0 [clockwise] ← GPU 0; "
                     "c0 [counter-clockwise] ← GPU 2 | a0+b0 \\| b0+c0, b1, b2, b3 |") != std::string::npos);
  // With --slices it is pipelined and keeps the steps.
  const auto sliced = ringviz::test::run_ringviz({"trace", "--algo", "bidir-ring", "--gpus", "4", "--count", "16",
                                                  "--slices", "2", "--format", "markdown", "--backend", "cpu"});
  REQUIRE(sliced.exit_code == 0);
  CHECK(sliced.out.find("### Wave 1 (reduce-scatter)") != std::string::npos);
  CHECK(sliced.out.find("[ch 1 · round 1 · slice 0]") != std::string::npos);
}
