// The document `ringviz capture --out` writes: the trace document of `trace --format json`
// with the measured capture block last, and the snapshot modes' omissions.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "core/nccl/nccl_tuner.h"
#include "core/topology/topology.h"
#include "tests/capture/mpi_launch.h"

namespace ringviz::test {

namespace {

using Json = nlohmann::ordered_json;

Json capture_document(int ranks, std::vector<std::string> arguments, const TempDir& folder) {
  const std::string out = (folder.path() / "run.json").string();
  arguments.insert(arguments.begin(), "capture");
  arguments.insert(arguments.end(), {"--out", out});
  const RunResult result = run_mpi(ranks, arguments);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return Json::parse(std::ifstream(out));
}

std::vector<std::string> keys_of(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

}  // namespace

TEST_CASE("a captured document has the trace's keys in the trace's order, then the capture block") {
  TempDir folder;
  const Json document = capture_document(3, {"--count", "6", "--delay", "2:1000"}, folder);
  const Json trace = Json::parse(run_ringviz({"trace", "--gpus", "3", "--count", "6", "--format", "json"}).out);
  std::vector<std::string> expected = keys_of(trace);
  expected.push_back("capture");
  CHECK(keys_of(document) == expected);
  CHECK(document["config"]["backend"] == "mpi");
  // The buffers are those of the in-process engine; only the backend and the times differ.
  CHECK(document["outputs"] == trace["outputs"]);
  CHECK(document["rounds"].size() == trace["rounds"].size());
  for (std::size_t round = 0; round < trace["rounds"].size(); ++round)
    CHECK(document["rounds"][round]["buffers"] == trace["rounds"][round]["buffers"]);

  const Json& capture = document["capture"];
  CHECK(keys_of(capture) ==
        std::vector<std::string>{"transport", "command", "snapshot", "clock", "delay", "ranks", "rounds", "prediction"});
  CHECK(capture["command"] == "ringviz capture --count 6 --delay 2:1000 --out " + (folder.path() / "run.json").string());
  CHECK(capture["snapshot"] == "rounds");
  CHECK(capture["delay"] == Json{{"rank", 2}, {"us", 1000}});
  REQUIRE(capture["ranks"].size() == 3);
  CHECK(capture["ranks"][0]["clock_offset_us"] == 0);
  CHECK(capture["ranks"][1]["device"].is_null());
  CHECK(capture["ranks"][2]["clock_error_us"].get<double>() >= 0);
  REQUIRE(capture["rounds"].size() == document["rounds"].size());
  for (std::size_t round = 0; round < capture["rounds"].size(); ++round) {
    const Json& spans = capture["rounds"][round]["ranks"];
    REQUIRE(spans.size() == 3);
    double earliest = spans[0]["start_us"], latest = spans[0]["end_us"];
    for (const Json& span : spans) {
      CHECK(span["start_us"] <= span["posted_us"]);
      CHECK(span["posted_us"] <= span["arrived_us"]);
      CHECK(span["arrived_us"] <= span["end_us"]);
      CHECK(span["bytes_sent"] == 8);  // a ring round: one slot of two f32 out, one in
      CHECK(span["bytes_received"] == 8);
      earliest = std::min(earliest, span["start_us"].get<double>());
      latest = std::max(latest, span["end_us"].get<double>());
    }
    // The straggler slept before posting its sends in every round.
    CHECK(spans[2]["delay_us"].get<double>() >= 1000);
    CHECK(spans[0]["delay_us"] == 0);
    // Each time is written to the nanosecond: the two sides differ by their rounding at most.
    CHECK(std::abs(document["rounds"][round]["time_us"].get<double>() - (latest - earliest)) < 0.01);
  }
}

TEST_CASE("--snapshot ends keeps the initial and last buffers, and none keeps no buffer and no outputs") {
  TempDir folder;
  const Json ends = capture_document(2, {"--count", "4", "--snapshot", "ends"}, folder);
  CHECK(ends.contains("initial"));
  CHECK(ends.contains("outputs"));
  CHECK_FALSE(ends["rounds"][0].contains("buffers"));
  CHECK(ends["rounds"].back().contains("buffers"));
  CHECK(ends["rounds"].back().contains("contributors"));
  CHECK(ends["capture"]["snapshot"] == "ends");

  const Json none = capture_document(2, {"--count", "4", "--snapshot", "none"}, folder);
  CHECK_FALSE(none.contains("initial"));
  CHECK_FALSE(none.contains("outputs"));
  for (const Json& round : none["rounds"]) CHECK_FALSE(round.contains("buffers"));
  CHECK(none["capture"]["delay"].is_null());
}

TEST_CASE("without --snapshot a capture over the value cap keeps the ends or nothing, and says so") {
  TempDir folder;
  const std::string out = (folder.path() / "run.json").string();
  const RunResult result = run_mpi(2, {"capture", "--count", "150000", "--out", out});
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("--snapshot ends") != std::string::npos);
  CHECK(Json::parse(std::ifstream(out))["capture"]["snapshot"] == "ends");
}

TEST_CASE("--format chrome gives each rank a track with a slice per round and its waits as slices") {
  TempDir folder;
  const Json document = capture_document(2, {"--count", "4", "--format", "chrome"}, folder);
  int rounds = 0, waits = 0;
  for (const Json& event : document["traceEvents"]) {
    if (event["ph"] != "X") continue;
    rounds += event["cat"] == "round";
    waits += event["cat"] == "wait";
  }
  CHECK(rounds == 2 * 2);  // two ranks, two rounds
  CHECK(waits >= 1);
}

TEST_CASE("a captured document holds the NCCL model's prediction beside the measured collective") {
  TempDir folder;
  // 6 f32 on 3 GPUs: a 24-byte AllReduce. Without --topology the model assumes nvswitch:3.
  const Json document = capture_document(3, {"--count", "6"}, folder);
  const Json& prediction = document["capture"]["prediction"];
  REQUIRE(prediction.is_object());
  const NcclPrediction model =
      *nccl_prediction_beside(nccl_machine(topology_preset("nvswitch:3")), Op::allreduce, 24);
  CHECK(prediction["topology"] == "nvswitch:3");
  CHECK(prediction["algorithm"] == std::string(nccl_algorithm_title(model.algorithm)));
  CHECK(prediction["protocol"] == std::string(nccl_protocol_name(model.protocol)));
  CHECK(prediction["channels"] == model.channels);
  CHECK(prediction["predicted_us"].get<double>() == doctest::Approx(model.seconds * 1e6));
  CHECK(prediction["predicted_busbw_gbps"].get<double>() == doctest::Approx(model.busbw / 1e9));
  // The measured span runs from the first start of round 1 to the last end of the last round.
  double first = 1e300, last = -1e300;
  for (const Json& span : document["capture"]["rounds"].front()["ranks"]) first = std::min(first, span["start_us"].get<double>());
  for (const Json& span : document["capture"]["rounds"].back()["ranks"]) last = std::max(last, span["end_us"].get<double>());
  CHECK(prediction["measured_us"].get<double>() == doctest::Approx(last - first));
  // --topology names another machine: PCIe, where NCCL never picks LL128.
  TempDir other;
  const Json pcie = capture_document(3, {"--count", "6", "--topology", "pcie:3"}, other);
  CHECK(pcie["capture"]["prediction"]["topology"] == "pcie:3");
  CHECK(pcie["capture"]["prediction"]["protocol"] != "LL128");
}

}  // namespace ringviz::test
