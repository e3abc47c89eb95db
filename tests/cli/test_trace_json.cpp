// The `ringviz.trace/1` document: every field of docs/architecture.md ("How a round flows"),
// consistent with itself.
#include <doctest/doctest.h>

#include <cstdint>

#include "json_trace.h"

using ringviz::test::json_trace;
using Json = nlohmann::json;

namespace {

std::int64_t sum_of(const Json& numbers) {
  std::int64_t total = 0;
  for (const Json& value : numbers) total += value.get<std::int64_t>();
  return total;
}

}  // namespace

TEST_CASE("a JSON trace carries every field of the schema in order") {
  const auto run = ringviz::test::run_ringviz({"trace", "--format", "json"});
  REQUIRE(run.exit_code == 0);
  const Json trace = Json::parse(run.out);
  CHECK(trace["schema"] == "ringviz.trace/1");
  for (const char* key : {"op", "algorithm", "order", "ranks", "count", "dtype", "reduce", "init", "backend"}) {
    CAPTURE(key);
    CHECK(trace["config"].contains(key));
  }
  // The document lists its sections in the schema's order, so a person can read it top down.
  const std::vector<std::string> order = {"\"schema\"", "\"config\"", "\"slots\"", "\"initial\"",
                                          "\"rounds\"", "\"outputs\"", "\"bytes_sent\"", "\"bytes_received\""};
  std::size_t previous = 0;
  for (const std::string& key : order) {
    CAPTURE(key);
    const std::size_t at = run.out.find(key);
    REQUIRE(at != std::string::npos);
    CHECK(at >= previous);
    previous = at;
  }
}

TEST_CASE("the config block repeats what was asked for") {
  const Json trace = json_trace({"--op", "reducescatter", "--gpus", "3", "--count", "10", "--dtype", "i64",
                                 "--reduce", "max", "--order", "nccl", "--init", "random:7", "--backend", "cpu"});
  const Json& config = trace["config"];
  CHECK(config["op"] == "reducescatter");
  CHECK(config["algorithm"] == "ring");
  CHECK(config["order"] == "nccl");
  CHECK(config["ranks"] == 3);
  CHECK(config["count"] == 10);
  CHECK(config["dtype"] == "i64");
  CHECK(config["reduce"] == "max");
  CHECK(config["init"] == "random:7");
  CHECK(config["backend"] == "cpu");
}

TEST_CASE("ring AllReduce takes 2(N-1) rounds, each with N transfers whose bytes match the slot sizes") {
  for (int gpus : {1, 2, 3, 4, 7}) {
    CAPTURE(gpus);
    const Json trace = json_trace({"--gpus", std::to_string(gpus), "--count", "10", "--dtype", "f64"});
    const Json& slots = trace["slots"];
    REQUIRE(slots.size() == static_cast<std::size_t>(gpus));
    std::int64_t offset = 0;
    for (const Json& slot : slots) {
      CHECK(slot["offset"] == offset);
      offset += slot["count"].get<std::int64_t>();
    }
    CHECK(offset == 10);

    const Json& rounds = trace["rounds"];
    CHECK(rounds.size() == static_cast<std::size_t>(2 * (gpus - 1)));
    std::vector<std::int64_t> sent(static_cast<std::size_t>(gpus), 0);
    std::vector<std::int64_t> received(static_cast<std::size_t>(gpus), 0);
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      const Json& round = rounds[r];
      CHECK(round["round"] == r + 1);
      CHECK(round["phase"] == (r + 1 < static_cast<std::size_t>(gpus) ? "reduce-scatter" : "all-gather"));
      CHECK_FALSE(round.contains("time_us"));  // the CPU backend does not time rounds
      CHECK(round["transfers"].size() == static_cast<std::size_t>(gpus));
      for (const Json& transfer : round["transfers"]) {
        const int slot = transfer["slot"];
        CHECK(transfer["dst"] == (transfer["src"].get<int>() + 1) % gpus);
        CHECK(transfer["kind"] == (round["phase"] == "reduce-scatter" ? "reduce" : "copy"));
        CHECK(transfer["bytes"] == slots[static_cast<std::size_t>(slot)]["count"].get<std::int64_t>() * 8);
        sent[transfer["src"].get<std::size_t>()] += transfer["bytes"].get<std::int64_t>();
        received[transfer["dst"].get<std::size_t>()] += transfer["bytes"].get<std::int64_t>();
      }
      CHECK(round["buffers"].size() == static_cast<std::size_t>(gpus));
      CHECK(round["contributors"].size() == static_cast<std::size_t>(gpus));
    }
    CHECK(trace["bytes_sent"] == Json(sent));
    CHECK(trace["bytes_received"] == Json(received));
  }
}

TEST_CASE("with count divisible by N each GPU sends 2(N-1)/N of its buffer in a ring AllReduce") {
  const Json trace = json_trace({"--gpus", "4", "--count", "16", "--dtype", "f32"});
  for (const Json& bytes : trace["bytes_sent"]) CHECK(bytes == 2 * 3 * 16 * 4 / 4);
  CHECK(sum_of(trace["bytes_sent"]) == sum_of(trace["bytes_received"]));
}

TEST_CASE("AllGather inputs are null outside each GPU's own block until the block arrives") {
  const Json trace = json_trace({"--op", "allgather", "--gpus", "3", "--count", "2"});
  CHECK(trace["initial"][0] == Json::parse("[1, 2, null, null, null, null]"));
  CHECK(trace["initial"][2] == Json::parse("[null, null, null, null, 5, 6]"));
  // After round 1 GPU 1 also holds GPU 0's block.
  CHECK(trace["rounds"][0]["buffers"][1] == Json::parse("[1, 2, 3, 4, null, null]"));
  CHECK(trace["rounds"][0]["contributors"][1] == Json::parse("[[0], [1], []]"));
  CHECK(trace["outputs"][1] == Json::parse("[1, 2, 3, 4, 5, 6]"));
}

TEST_CASE("contributors grow by one rank per reduce round and cover every rank at the end") {
  const Json trace = json_trace({"--gpus", "3", "--count", "3"});
  const Json& rounds = trace["rounds"];
  // GPU 1 folds GPU 0's chunk 0 into its own in round 1.
  CHECK(rounds[0]["contributors"][1][0] == Json::parse("[0, 1]"));
  for (const Json& gpu : rounds.back()["contributors"])
    for (const Json& slot : gpu) CHECK(slot == Json::parse("[0, 1, 2]"));
}

TEST_CASE("ReduceScatter outputs are one chunk per GPU, as long as the layout says") {
  const Json trace = json_trace({"--op", "reducescatter", "--gpus", "3", "--count", "7", "--order", "nccl"});
  const Json& slots = trace["slots"];
  for (std::size_t rank = 0; rank < 3; ++rank) {
    CAPTURE(rank);
    CHECK(trace["outputs"][rank].size() == slots[rank]["count"].get<std::size_t>());
  }
}

TEST_CASE("the JSON trace is the same whatever --lang says") {
  const auto english = ringviz::test::run_ringviz({"trace", "--format", "json", "--lang", "en"});
  const auto chinese = ringviz::test::run_ringviz({"trace", "--format", "json", "--lang", "zh"});
  REQUIRE(english.exit_code == 0);
  CHECK(english.out == chinese.out);
}

TEST_CASE("every algorithm's trace ends with the same AllReduce outputs as the ring") {
  const Json ring = json_trace({"--gpus", "5", "--count", "7", "--dtype", "i32"});
  for (const char* algorithm : {"naive", "direct", "rhd", "tree", "tree-pipelined"}) {
    CAPTURE(algorithm);
    const Json other = json_trace({"--gpus", "5", "--count", "7", "--dtype", "i32", "--algo", algorithm});
    CHECK(other["config"]["algorithm"] == algorithm);
    CHECK(other["outputs"] == ring["outputs"]);
  }
}
