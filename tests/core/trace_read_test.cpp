// Reading ringviz.trace/1 documents back: every `trace --format json` output and every capture
// snapshot mode reads into the values the engine computed, and a malformed document is one
// line naming the file position and what is wrong.
#include <doctest/doctest.h>

#include <string>

#include "capture_input_error.h"
#include "core/model/checked_value.h"
#include "core/engine/backend.h"
#include "core/engine/session.h"
#include "core/algorithms/registry.h"
#include "core/teaching/lesson.h"
#include "core/trace/recorded_compare.h"
#include "core/trace/trace.h"
#include "core/trace/trace_read.h"
#include "synthetic_capture.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;

namespace {

Config make_config(Op op, Algorithm algorithm, int ranks, std::int64_t count, DType dtype, ReduceOp reduce,
                   const std::string& init = "seed") {
  return ConfigBuilder().op(op).algorithm(algorithm).ranks(ranks).count(count).dtype(dtype).reduce(reduce)
      .init(init);
}

// Every recorded buffer equals the engine's after the same round.
void check_round_trip(const Config& config) {
  const RecordedRun run = parse_recorded_run(trace_document(config), "t.json");
  Session session(config, make_cpu_backend(1));
  CHECK(run.config.op == config.op);
  CHECK(run.config.dtype == config.dtype);
  CHECK(run.backend == "cpu");
  REQUIRE(run.initial);
  CHECK_FALSE(first_difference(*run.initial, session.buffers(), run.layout, session.provenance()));
  REQUIRE(run.rounds.size() == static_cast<std::size_t>(session.round_count()));
  for (const RecordedRound& round : run.rounds) {
    session.step_forward();
    REQUIRE(round.buffers);
    const auto difference = first_difference(*round.buffers, session.buffers(), run.layout, session.provenance());
    CHECK_FALSE(difference);
  }
  REQUIRE(run.outputs);
  const std::vector<ByteBuffer> outputs = session.outputs();
  REQUIRE(run.outputs->size() == outputs.size());
  for (std::size_t rank = 0; rank < outputs.size(); ++rank)
    CHECK(run.outputs->at(rank).size() == outputs[rank].size());
  CHECK_FALSE(run.capture);
}

std::string with_replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string read_error(const std::string& text) {
  return input_error([&] { parse_recorded_run(text, "run.json"); });
}

}  // namespace

TEST_CASE("every trace output reads back into the buffers the engine computed, for every op, algorithm and dtype") {
  const DType dtypes[] = {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i32, DType::i64};
  const ReduceOp reductions[] = {ReduceOp::sum, ReduceOp::prod, ReduceOp::max, ReduceOp::min, ReduceOp::avg};
  const Op ops[] = {Op::allgather, Op::reducescatter, Op::allreduce};
  int checked = 0;
  for (Op op : ops)
    for (Algorithm algorithm : kAllAlgorithms) {
      if (!algorithm_supports(algorithm, op)) continue;
      for (DType dtype : dtypes) {
        const ReduceOp reduce = reductions[checked % 5];
        const int ranks = 1 + checked % 6;
        CAPTURE(checked);
        check_round_trip(make_config(op, algorithm, ranks, 3 + checked % 5, dtype, reduce,
                                     checked % 2 ? "random:7" : "seed"));
        ++checked;
      }
    }
  CHECK(checked > 80);
}

TEST_CASE("an AllToAll trace reads back round by round, and a transfer from another slot is refused") {
  for (int ranks : {1, 2, 3, 5})
    for (std::int64_t count : {std::int64_t{ranks - 1}, std::int64_t{2 * ranks + 1}})
      for (DType dtype : {DType::f16, DType::i64}) {
        CAPTURE(ranks);
        CAPTURE(count);
        check_round_trip(make_config(Op::alltoall, Algorithm::direct, ranks, count, dtype, ReduceOp::sum, "random:3"));
      }
  // On 2 GPUs GPU 0 sends its slot 1 into GPU 1's slot 0: the document says so, and must.
  const std::string good = trace_document(make_config(Op::alltoall, Algorithm::direct, 2, 4, DType::f32, ReduceOp::sum));
  REQUIRE(good.find("\"src_slot\": 1") != std::string::npos);
  const std::string error = read_error(with_replaced(good, "\"src_slot\": 1", "\"src_slot\": 0"));
  CHECK(error.find("transfer 1 is 0 -> 1 slot 0 copy, but the schedule has 0 -> 1 slot 1 -> 0 copy") !=
        std::string::npos);
}

TEST_CASE("a broadcast trace carries its root, reads back from it, and one written without a root reads as root 0") {
  for (int ranks : {1, 3, 5})
    for (int root = 0; root < ranks; ++root) {
      CAPTURE(ranks);
      CAPTURE(root);
      Config config = make_config(Op::broadcast, Algorithm::ring, ranks, 7, DType::f32, ReduceOp::sum, "random:5");
      config.root = root;
      check_round_trip(config);
      const std::string text = trace_document(config);
      CHECK(text.find("\"root\": " + std::to_string(root)) != std::string::npos);
      CHECK(parse_recorded_run(text, "t.json").config.root == root);
    }
  // A document from before the field: the root was GPU 0.
  const std::string root_zero = trace_document(make_config(Op::broadcast, Algorithm::ring, 3, 4, DType::f32, ReduceOp::sum));
  const RecordedRun old = parse_recorded_run(with_replaced(root_zero, ", \"root\": 0", ""), "old.json");
  CHECK(old.config.root == 0);
  // Other ops write none, so their documents stay as they were.
  CHECK(trace_document(make_config(Op::allreduce, Algorithm::ring, 3, 4, DType::f32, ReduceOp::sum)).find("\"root\"") ==
        std::string::npos);
  // A root outside the ring is refused at its position.
  Config three = make_config(Op::broadcast, Algorithm::ring, 3, 4, DType::f32, ReduceOp::sum);
  three.root = 2;
  const std::string error = read_error(with_replaced(trace_document(three), "\"root\": 2", "\"root\": 3"));
  CHECK(error.find("config.root: expected a whole number from 0 to 2, found 3") != std::string::npos);
}

TEST_CASE("NaN and the infinities come back from their strings") {
  Config config = make_config(Op::allreduce, Algorithm::ring, 2, 2, DType::f16, ReduceOp::max);
  config.init.kind = InitKind::values;
  config.init.values = numbers_of_reals({{std::nan(""), HUGE_VAL}, {-HUGE_VAL, 0.1}});
  const std::string text = trace_document(config);
  CHECK(text.find("\"nan\"") != std::string::npos);
  CHECK(text.find("\"-inf\"") != std::string::npos);
  const RecordedRun run = parse_recorded_run(text, "t.json");
  const ElementValue first = read_element(run.rounds.back().buffers.value(), 1, 0);
  CHECK(std::isnan(first.real));
  CHECK(read_element(*run.initial, 1, 0).real == -HUGE_VAL);
  CHECK(run.init_spec == "values");
  Session replayed(run.config, make_cpu_backend(1));
  replayed.seek(replayed.round_count());
  CHECK_FALSE(first_difference(*run.rounds.back().buffers, replayed.buffers(), run.layout, replayed.provenance()));
}

TEST_CASE("a document whose inputs came from a table needs its initial buffers") {
  Config config = make_config(Op::allgather, Algorithm::ring, 2, 2, DType::f32, ReduceOp::sum);
  config.init.kind = InitKind::values;
  config.init.values = numbers_of_reals({{1, 2}, {3, 4}});
  nlohmann::ordered_json document = nlohmann::ordered_json::parse(trace_document(config));
  CHECK(parse_recorded_run(document.dump(2), "t.json").config.init.values[1][1].real == 4);
  document.erase("initial");
  CHECK(read_error(document.dump(2)) ==
        "run.json:11:13: config.init: \"values\" needs the document's \"initial\" buffers, which it does not have");
}

TEST_CASE("a capture reads in each snapshot mode, with its ranks, hosts and per-round spans") {
  const Config config = make_config(Op::allreduce, Algorithm::ring, 4, 8, DType::f32, ReduceOp::sum);
  for (const std::string snapshot : {"rounds", "ends", "none"}) {
    CAPTURE(snapshot);
    const RecordedRun run = parse_recorded_run(synthetic_capture(config, snapshot).dump(2), "run.json");
    REQUIRE(run.capture);
    CHECK(run.backend == "mpi");
    CHECK(run.capture->transport == "mpi");
    CHECK(snapshot_mode_name(run.capture->snapshot) == snapshot);
    CHECK(host_count(*run.capture) == 2);
    CHECK(run.capture->ranks[3].host == "node-b");
    REQUIRE(run.capture->delay);
    CHECK(run.capture->delay->rank == 2);
    CHECK(run.capture->rounds.size() == 6);
    CHECK(run.capture->rounds[0][2].delay_us == 2000);
    CHECK(run.every_round_timed());
    CHECK(run.initial.has_value() == (snapshot != "none"));
    CHECK(run.rounds.front().buffers.has_value() == (snapshot == "rounds"));
    CHECK(run.rounds.back().buffers.has_value() == (snapshot != "none"));
  }
}

TEST_CASE("a plain trace reads without times, so its rounds are not all timed") {
  const RecordedRun run = parse_recorded_run(
      trace_document(make_config(Op::allreduce, Algorithm::ring, 3, 3, DType::i32, ReduceOp::sum)), "t.json");
  CHECK_FALSE(run.every_round_timed());
}

TEST_CASE("malformed trace documents name the file position and what is wrong") {
  const Config config = make_config(Op::allreduce, Algorithm::ring, 4, 4, DType::i32, ReduceOp::sum);
  const std::string good = trace_document(config);
  const std::string capture = synthetic_capture(config, "rounds").dump(1);

  CHECK(read_error("[1, 2") == "run.json:1:6: not valid JSON: unexpected end of input; expected ']'");
  CHECK(read_error("[]") == "run.json:1:1: top level: expected an object, found an array");
  CHECK(read_error(with_replaced(good, "ringviz.trace/1", "ringviz.trace/2")) ==
        "run.json:2:13: schema: expected \"ringviz.trace/1\", found \"ringviz.trace/2\"");
  CHECK(read_error(with_replaced(good, "\"op\": \"allreduce\"", "\"op\": \"allscatter\"")) ==
        "run.json:3:20: config.op: unknown value 'allscatter' (expected allgather, reducescatter, allreduce, broadcast, alltoall or sendrecv)");
  CHECK(read_error(with_replaced(good, "\"op\": \"allreduce\"", "\"op\": \"sendrecv\"")) ==
        "run.json:3:13: config: --op sendrecv: a point-to-point transfer between two GPUs, which ringviz shows as a "
        "transfer, not as a schedule of rounds; choose a collective (allgather, reducescatter, allreduce, broadcast or "
        "alltoall)");
  CHECK(read_error(with_replaced(good, "\"ranks\": 4", "\"ranks\": \"four\"")) ==
        "run.json:3:80: config.ranks: expected a whole number from 1 to 256, found \"four\"");
  CHECK(read_error(with_replaced(good, "\"algorithm\": \"ring\"", "\"algorithm\": \"tree\"").replace(
            good.find("\"op\": \"allreduce\""), 17, "\"op\": \"allgather\"")) ==
        "run.json:3:13: config: " + *unsupported_op_message(Algorithm::tree, Op::allgather));
  CHECK(read_error(with_replaced(good, "{\"offset\": 1, \"count\": 1}", "{\"offset\": 1, \"count\": 2}")) ==
        "run.json:6:5: slots[1]: {offset 1, count 2} does not match the config's slot (offset 1, count 1)");
  CHECK(read_error(with_replaced(good, "{\"src\": 0, \"dst\": 1, \"slot\": 0", "{\"src\": 0, \"dst\": 2, \"slot\": 0")) ==
        "run.json:21:9: rounds[0].transfers[0]: round 1 transfer 1 is 0 -> 2 slot 0 reduce, but the schedule has "
        "0 -> 1 slot 0 reduce (a document from another version, or edited by hand)");
  CHECK(read_error(with_replaced(good, "\"phase\": \"reduce-scatter\"", "\"phase\": \"all-gather\"")) ==
        "run.json:19:16: rounds[0].phase: round 1 is all-gather, but the schedule's is reduce-scatter");
  CHECK(read_error(with_replaced(good, "[1, 2, 3, 4]", "[1, 2, 3]")) ==
        "run.json:11:5: initial[0]: expected an array of 4 entries, found 3 entries");
  CHECK(read_error(with_replaced(good, "[1, 2, 3, 4]", "[1.5, 2, 3, 4]")) ==
        "run.json:11:6: initial[0][0]: 1.5 does not fit i32 (whole numbers from -2147483648 to 2147483647)");
  CHECK(read_error(with_replaced(good, "[1, 2, 3, 4]", "[null, 2, 3, 4]")) ==
        "run.json:11:6: initial[0][0]: null, but slot 0 holds data here");
  CHECK(read_error(with_replaced(good, "\"contributors\": [", "\"contributorz\": [")) ==
        "run.json:17:5: rounds[0]: \"buffers\" and \"contributors\" come together: one is missing");
  CHECK(read_error(with_replaced(capture, "\"snapshot\": \"rounds\"", "\"snapshot\": \"some\"")).find(
            "capture.snapshot: unknown value 'some' (expected rounds, ends or none)") != std::string::npos);
  CHECK(read_error(with_replaced(capture, "\"host\": \"node-a\"", "\"host\": 7")).find(
            ": capture.ranks[0].host: expected a string, found 7") != std::string::npos);
  CHECK(read_error(with_replaced(capture, "\"end_us\": 131.0", "\"end_us\": 100.0")).find(
            "capture.rounds[0].ranks[0]: the times must not decrease (start_us <= posted_us <= arrived_us <= end_us)") !=
        std::string::npos);
}

TEST_CASE("a recorded buffer that differs from the engine's is found at its round, GPU and element") {
  const Config config = make_config(Op::allreduce, Algorithm::ring, 4, 8, DType::f32, ReduceOp::sum);
  nlohmann::ordered_json document = synthetic_capture(config, "rounds");
  RecordedRun run = parse_recorded_run(document.dump(), "run.json");
  Session session(run.config, make_cpu_backend(1));
  CHECK_FALSE(first_recorded_mismatch(run, session));
  document["rounds"][2]["buffers"][1][5] = 1000.5;
  run = parse_recorded_run(document.dump(), "run.json");
  const auto mismatch = first_recorded_mismatch(run, session);
  REQUIRE(mismatch);
  CHECK(mismatch->round == 3);
  CHECK(mismatch->difference.rank == 1);
  CHECK(mismatch->difference.element == 5);
  CHECK(mismatch->difference.recorded.real == 1000.5);
  CHECK_FALSE(mismatch->in_outputs);
}

TEST_CASE("a recorded output that differs from the engine's is found, and edited byte totals are refused") {
  const Config config = make_config(Op::reducescatter, Algorithm::ring, 3, 7, DType::i32, ReduceOp::sum);
  nlohmann::ordered_json document = synthetic_capture(config, "rounds");
  document["outputs"][2][0] = 12345;
  const RecordedRun run = parse_recorded_run(document.dump(), "run.json");
  Session session(run.config, make_cpu_backend(1));
  const auto mismatch = first_recorded_mismatch(run, session);
  REQUIRE(mismatch);
  CHECK(mismatch->in_outputs);
  CHECK(mismatch->difference.rank == 2);
  CHECK(mismatch->difference.element == 0);
  CHECK(mismatch->difference.recorded.integer == 12345);

  document = synthetic_capture(config, "rounds");
  document["bytes_sent"][1] = 1;
  const std::string error = input_error([&] { parse_recorded_run(document.dump(), "run.json"); });
  CHECK(error.find("bytes_sent[1]: expected ") != std::string::npos);
  CHECK(error.find(", the bytes the schedule moves for GPU 1") != std::string::npos);
}

TEST_CASE("a lesson scene opens a recorded run found beside the lessons folder, and takes its collective") {
  const std::string source = std::string(RINGVIZ_SOURCE_DIR) + "/assets/lessons/test.json";
  auto lesson_with = [](const std::string& scene_fields) {
    return R"({"schema": "ringviz.lesson/1", "title": {"en": "t", "zh": "t"}, "summary": {"en": "s", "zh": "s"},
              "scenes": [{"title": {"en": "t", "zh": "t"}, )" + scene_fields + R"(, "views": ["ring"],
              "steps": [{"rounds": [0, 6], "caption": {"en": "c", "zh": "c"}}]}]})";
  };
  const Lesson lesson = parse_lesson(lesson_with(R"("open": "captures/synthetic-straggler-4gpus.json")"), source);
  const LessonScene& scene = lesson.scenes.front();
  REQUIRE(scene.open);
  CHECK(scene.open->filename() == "synthetic-straggler-4gpus.json");
  CHECK(scene.config.ranks == 4);
  CHECK(scene.round_count == 6);
  CHECK(input_error([&] { parse_lesson(lesson_with(R"("open": "captures/none.json")"), source); }).find(
            "/scenes/0/open: open: cannot replay it: trace file ") != std::string::npos);
  CHECK(input_error([&] {
          parse_lesson(lesson_with(R"("config": {"gpus": 4}, "open": "captures/synthetic-straggler-4gpus.json")"), source);
        }).find("open: not with \"config\" (the recorded run brings its collective)") != std::string::npos);
}

// Pipelined traces (docs/architecture.md, "Pipelined schedules"): waves read back into the
// engine's buffers, and steps or a summary that disagree with the config are refused.
namespace {

Config pipelined(Op op, int ranks, std::int64_t count, int channels, int slices) {
  Config config = make_config(op, Algorithm::ring, ranks, count, DType::i32, ReduceOp::sum);
  config.channels = channels;
  config.slices = slices;
  return config;
}

}  // namespace

TEST_CASE("a pipelined trace reads back wave by wave into the engine's buffers") {
  for (const Op op : {Op::allgather, Op::reducescatter, Op::allreduce}) {
    CAPTURE(op_name(op));
    const RecordedRun run = parse_recorded_run(trace_document(pipelined(op, 3, 11, 2, 3)), "t.json");
    CHECK(run.config.channels == 2);
    CHECK(run.config.slices == 3);
    Session session(run.config, make_cpu_backend(1));
    REQUIRE(run.rounds.size() == static_cast<std::size_t>(session.round_count()));
    for (const RecordedRound& round : run.rounds) {
      session.step_forward();
      REQUIRE(round.buffers);
      CHECK_FALSE(first_difference(*round.buffers, session.buffers(), run.layout, session.provenance()));
    }
  }
}

TEST_CASE("a pipelined trace whose steps or summary disagree with its config is refused at the file position") {
  const std::string good = trace_document(pipelined(Op::allreduce, 2, 4, 1, 2));
  CHECK_NOTHROW(parse_recorded_run(good, "run.json"));
  const std::string wrong_slice = read_error(with_replaced(good, "\"slice\": 0", "\"slice\": 1"));
  CHECK(wrong_slice.find("run.json:") == 0);
  CHECK(wrong_slice.find("is channel 0 round 1 slice 1, but the schedule has channel 0 round 1 slice 0") !=
        std::string::npos);
  CHECK(read_error(with_replaced(good, "\"slice\": 0, \"phase\": \"reduce-scatter\"",
                                 "\"slice\": 0, \"phase\": \"all-gather\""))
            .find("phase: round 1 is reduce-scatter, not all-gather") != std::string::npos);
  CHECK(read_error(with_replaced(good, "\"waves\": 3", "\"waves\": 4"))
            .find("pipeline.waves: expected a whole number from 3 to 3, found 4") != std::string::npos);
  CHECK(read_error(with_replaced(good, "\"pipeline\"", "\"pipe\"")).find("missing \"pipeline\"") !=
        std::string::npos);
  CHECK(read_error(with_replaced(good, "\"bytes\": 4", "\"bytes\": 8")).find("8 bytes, but its piece holds 4") !=
        std::string::npos);
}
