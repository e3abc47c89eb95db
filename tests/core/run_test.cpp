// Today's documents as runs: every `trace --format json` output and capture reads into a run of
// one collective (one group of all ranks, one instance per rank sharing the recording), whose
// collective steps with the config the document records.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "capture_input_error.h"
#include "core/run/run_collectives.h"
#include "core/run/run_from_trace.h"
#include "core/run/run_validate.h"
#include "synthetic_capture.h"
#include "tests/support/config_builder.h"

using namespace ringviz;
using ringviz::test::ConfigBuilder;

namespace {

Config small_config(Op op, int ranks, std::int64_t count, DType dtype) {
  return ConfigBuilder().op(op).ranks(ranks).count(count).dtype(dtype);
}

// The fields a Session is built from, equal in both.
void check_same_collective(const Config& stepped, const Config& recorded) {
  CHECK(stepped.op == recorded.op);
  CHECK(stepped.algorithm == recorded.algorithm);
  CHECK(stepped.order == recorded.order);
  CHECK(stepped.ranks == recorded.ranks);
  CHECK(stepped.count == recorded.count);
  CHECK(stepped.dtype == recorded.dtype);
  CHECK(stepped.reduce == recorded.reduce);
  CHECK(stepped.channels == recorded.channels);
  CHECK(stepped.slices == recorded.slices);
  CHECK(stepped.init.spec() == recorded.init.spec());
  CHECK(stepped.init.values == recorded.init.values);
}

}  // namespace

TEST_CASE("a trace document is a run of one collective: one group of all ranks, one instance per rank") {
  const Config config = small_config(Op::reducescatter, 3, 6, DType::f16);
  const Run run = parse_run(trace_document(config), "t.json");
  CHECK_FALSE(validate(run));
  REQUIRE(run.world_size() == 3);
  REQUIRE(run.groups.size() == 1);
  CHECK(run.groups[0].name == "world");
  CHECK(run.groups[0].ranks == std::vector<int>{0, 1, 2});
  const std::shared_ptr<const RecordedRun>& recording = run.ranks[0].collectives.at(0).recording;
  REQUIRE(recording);
  for (const RankTimeline& timeline : run.ranks) {
    CHECK(timeline.traced);
    CHECK(timeline.compute.empty());
    REQUIRE(timeline.collectives.size() == 1);
    const CollectiveInstance& instance = timeline.collectives[0];
    CHECK(instance.group == 0);
    CHECK(instance.op == Op::reducescatter);
    CHECK(instance.count == 6);
    CHECK(instance.dtype == DType::f16);
    CHECK(instance.bytes == 12);
    CHECK_FALSE(instance.measured);  // a CPU trace times no round
    CHECK(instance.recording == recording);
  }
  const std::vector<RunCollective> collectives = run_collectives(run);
  REQUIRE(collectives.size() == 1);
  CHECK(collectives[0].group == 0);
  CHECK(collectives[0].sequence == 0);
  REQUIRE(collectives[0].members.size() == 3);
  for (int rank = 0; rank < 3; ++rank) CHECK(collectives[0].members[static_cast<std::size_t>(rank)] == &run.ranks[static_cast<std::size_t>(rank)].collectives[0]);
  check_same_collective(collective_config(run, collectives[0]), recording->config);
}

TEST_CASE("a capture's ranks are measured from their first start to their last end on its clock") {
  const Config config = small_config(Op::allreduce, 4, 16, DType::f32);
  const Run run = parse_run(synthetic_capture(config, "ends").dump(), "run.json");
  const CaptureRecord& capture = *run.ranks[0].collectives[0].recording->capture;
  for (int rank = 0; rank < 4; ++rank) {
    const auto index = static_cast<std::size_t>(rank);
    const std::optional<TimeSpan>& measured = run.ranks[index].collectives[0].measured;
    REQUIRE(measured);
    CHECK(measured->start_us == 0);
    CHECK(measured->end_us == capture.rounds.back()[index].end_us);
  }
  // The straggler's receiver waits longest, so it finishes after the straggler.
  CHECK(run.ranks[3].collectives[0].measured->end_us > run.ranks[2].collectives[0].measured->end_us);
}

TEST_CASE("a trace whose backend timed every round is measured as the rounds' total, for every rank") {
  nlohmann::json document = nlohmann::json::parse(trace_document(small_config(Op::allgather, 2, 4, DType::i32)));
  double total = 0;
  for (nlohmann::json& round : document["rounds"]) {
    total += 12.5;
    round["time_us"] = 12.5;
  }
  const Run run = parse_run(document.dump(), "timed.json");
  for (const RankTimeline& timeline : run.ranks) {
    REQUIRE(timeline.collectives[0].measured);
    CHECK(timeline.collectives[0].measured->start_us == 0);
    CHECK(timeline.collectives[0].measured->end_us == total);
  }
}

TEST_CASE("a pipelined trace's channels and slices are its instances' and its stepped config's") {
  Config config = small_config(Op::allreduce, 3, 12, DType::f32);
  config.channels = 2;
  config.slices = 3;
  const Run run = parse_run(trace_document(config), "t.json");
  CHECK(run.ranks[1].collectives[0].channels == 2);
  CHECK(run.ranks[1].collectives[0].slices == 3);
  const Config stepped = collective_config(run, run_collectives(run).at(0));
  CHECK(stepped.channels == 2);
  CHECK(stepped.slices == 3);
}

TEST_CASE("every corpus trace and shipped capture opens as a run of the collective it records") {
  std::vector<std::filesystem::path> documents;
  for (const char* folder : {"/tests/cli/trace_corpus/expected", "/assets/captures"})
    for (const auto& entry : std::filesystem::directory_iterator(std::string(RINGVIZ_SOURCE_DIR) + folder))
      if (entry.path().extension() == ".json") documents.push_back(entry.path());
  REQUIRE(documents.size() >= 202);  // the 200 of the corpus and the two shipped captures
  for (const std::filesystem::path& path : documents) {
    CAPTURE(path.filename().string());
    const RecordedRun recorded = read_recorded_run(path.string());
    const Run run = read_run(path.string());
    CHECK(run.world_size() == recorded.config.ranks);
    const std::vector<RunCollective> collectives = run_collectives(run);
    REQUIRE(collectives.size() == 1);
    check_same_collective(collective_config(run, collectives[0]), recorded.config);
    CHECK(run.ranks[0].collectives[0].measured.has_value() == (recorded.capture.has_value() || recorded.every_round_timed()));
  }
}

TEST_CASE("a document the reader refuses is refused as a run with the reader's own line") {
  const std::string text = "{\"schema\": \"ringviz.trace/9\"}";
  const std::string expected = input_error([&] { parse_recorded_run(text, "run.json"); });
  CHECK(expected == "run.json:1:12: schema: expected \"ringviz.trace/1\", found \"ringviz.trace/9\"");
  CHECK(input_error([&] { parse_run(text, "run.json"); }) == expected);
}
