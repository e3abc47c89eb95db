#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <string>

#include "core/algorithms/registry.h"
#include "core/engine/backend.h"
#include "core/model/layout.h"
#include "core/teaching/lesson.h"
#include "core/topology/topology.h"
#include "core/training/cost_model.h"
#include "core/training/memory_model.h"
#include "core/engine/session.h"
#include "core/training/training_run.h"
#include "core/engine/traffic.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;

namespace {

// From the build (not __FILE__, which a compiler cache may make relative).
const std::filesystem::path kLessonFolder = std::filesystem::path(RINGVIZ_SOURCE_DIR) / "assets" / "lessons";

Lesson shipped(std::string_view name) { return load_lesson_file(kLessonFolder / name); }

std::vector<std::string> all_texts(const Lesson& lesson, Language language) {
  std::vector<std::string> texts{lesson.title.in(language), lesson.summary.in(language)};
  for (const LessonScene& scene : lesson.scenes) {
    texts.push_back(scene.title.in(language));
    for (const LessonStep& step : scene.steps) texts.push_back(step.caption.in(language));
  }
  return texts;
}

std::vector<std::string> numbers_in(const std::string& text) {
  static const std::regex number(R"(\d+(\.\d+)?)");
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number);
       it != std::sregex_iterator(); ++it)
    found.push_back(it->str());
  std::sort(found.begin(), found.end());
  return found;
}

std::size_t code_points(const std::string& utf8) {
  return static_cast<std::size_t>(std::count_if(
      utf8.begin(), utf8.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// Every element of a rank's working buffer after running the scene's collective to the end.
std::vector<double> final_values(const Config& config, int rank) {
  Session session(config, make_cpu_backend(1));
  session.seek(session.round_count());
  std::vector<double> values;
  for (std::int64_t i = 0; i < session.buffers().elements_per_rank; ++i) {
    const ElementValue value = read_element(session.buffers(), rank, i);
    values.push_back(value.is_integer ? static_cast<double>(value.integer) : value.real);
  }
  return values;
}

std::vector<double> slot_values(const Config& config, int rank, int slot) {
  const std::vector<double> all = final_values(config, rank);
  const Slot where = make_layout(config)[slot];
  return {all.begin() + where.offset, all.begin() + where.offset + where.count};
}

// A well-formed lesson to break in one place at a time.
std::string small_lesson(std::string_view config, std::string_view steps,
                         std::string_view views = R"(["ring"])", std::string_view extra = "") {
  return std::string(R"({
  "schema": "ringviz.lesson/1",
  "title": {"en": "Test", "zh": "测试"},
  "summary": {"en": "A test lesson.", "zh": "测试用的课程。"},
  "scenes": [
    {
      "title": {"en": "Scene", "zh": "场景"},
      "config": )") + std::string(config) + R"(,
      "views": )" + std::string(views) + std::string(extra) + R"(,
      "steps": )" + std::string(steps) + R"(
    }
  ]
}
)";
}

constexpr std::string_view kAllGather4 = R"({"op": "allgather", "gpus": 4, "count": 2})";

std::string error_of(const std::string& text) {
  try {
    parse_lesson(text, "bad.json");
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("the shipped lessons are numbered, at least six, and include the default lesson") {
  const auto files = list_lesson_files(kLessonFolder);
  REQUIRE(files.size() >= 6);
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string name = files[i].filename().string();
    CAPTURE(name);
    CHECK(std::regex_match(name, std::regex(R"(\d\d-[a-z0-9-]+\.json)")));
    if (i > 0) CHECK(files[i - 1].filename() < files[i].filename());
  }
  CHECK(std::filesystem::exists(kLessonFolder / kDefaultLessonFile));
  CHECK(files.front().filename() == "01-why-synchronise.json");
  CHECK(files[5].filename() == "06-ddp-vs-zero2.json");
}

TEST_CASE("every shipped lesson loads, validates and lasts a sensible time") {
  for (const auto& file : list_lesson_files(kLessonFolder)) {
    CAPTURE(file);
    Lesson lesson;
    REQUIRE_NOTHROW(lesson = load_lesson_file(file));
    CHECK(lesson.source == file.string());
    CHECK_FALSE(lesson.scenes.empty());
    CHECK(lesson.duration() > 20.0);
    CHECK(lesson.duration() < 240.0);
    for (const LessonScene& scene : lesson.scenes) {
      CHECK_FALSE(scene.views.empty());
      CHECK_FALSE(scene.steps.empty());
      for (const LessonStep& step : scene.steps) CHECK(step.duration() > 0.0);
    }
  }
}

TEST_CASE("the lessons follow the source article: training first, primitives, rings, traffic, memory last") {
  const auto has_view = [](const Lesson& lesson, View view) {
    return std::any_of(lesson.scenes.begin(), lesson.scenes.end(), [&](const LessonScene& scene) {
      return std::find(scene.views.begin(), scene.views.end(), view) != scene.views.end();
    });
  };
  const Lesson why = shipped("01-why-synchronise.json");
  CHECK(has_view(why, View::training));
  REQUIRE(why.scenes.front().training.has_value());
  CHECK(why.scenes.front().training->strategies ==
        std::vector<TrainStrategy>{TrainStrategy::nosync, TrainStrategy::ddp});
  CHECK(why.scenes.front().config.ranks == 2);

  const Lesson primitives = shipped("02-three-primitives.json");
  std::set<Op> ops;
  for (const LessonScene& scene : primitives.scenes) {
    CHECK(scene.config.ranks == 2);
    ops.insert(scene.config.op);
  }
  CHECK(ops.size() == 3);

  CHECK(shipped("03-ring-allgather.json").scenes.front().config.op == Op::allgather);
  CHECK(shipped("03-ring-allgather.json").scenes.front().config.ranks == 4);
  CHECK(shipped("04-ring-reducescatter.json").scenes.front().config.op == Op::reducescatter);
  CHECK(shipped("04-ring-reducescatter.json").scenes.front().config.ranks == 4);
  CHECK(shipped("05-allreduce-traffic.json").scenes.front().config.op == Op::allreduce);
  CHECK(has_view(shipped("05-allreduce-traffic.json"), View::traffic));

  const Lesson zero = shipped("06-ddp-vs-zero2.json");
  CHECK(has_view(zero, View::memory));
  REQUIRE(zero.scenes.front().memory.has_value());
  CHECK(zero.scenes.front().memory->params == 7'000'000'000);
  CHECK(zero.scenes.front().memory->strategies == std::vector<Strategy>{Strategy::ddp, Strategy::zero2});
}

TEST_CASE("English and Chinese texts of the shipped lessons state the same numbers") {
  for (const auto& file : list_lesson_files(kLessonFolder)) {
    const Lesson lesson = load_lesson_file(file);
    const auto en = all_texts(lesson, Language::en);
    const auto zh = all_texts(lesson, Language::zh);
    REQUIRE(en.size() == zh.size());
    for (std::size_t i = 0; i < en.size(); ++i) {
      CAPTURE(file.filename());
      CAPTURE(en[i]);
      CAPTURE(zh[i]);
      CHECK(numbers_in(en[i]) == numbers_in(zh[i]));
    }
  }
}

TEST_CASE("shipped captions fit a video frame and the player's fonts") {
  for (const auto& file : list_lesson_files(kLessonFolder)) {
    const Lesson lesson = load_lesson_file(file);
    const auto en = all_texts(lesson, Language::en);
    const auto zh = all_texts(lesson, Language::zh);
    for (std::size_t i = 0; i < en.size(); ++i) {
      CAPTURE(en[i]);
      CAPTURE(zh[i]);
      // Dear ImGui's default font covers Latin-1 only: no arrows, dashes or minus signs.
      CHECK(std::all_of(en[i].begin(), en[i].end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte < 0x80 || byte == 0xC2 || byte == 0xC3 || (byte & 0xC0) == 0x80;
      }));
      // Titles and captions: two lines of big type at the bottom of a 1920x1080 frame (a
      // Chinese character is about two Latin ones wide). The summary (i == 1) is a menu text.
      const bool summary = i == 1;
      CHECK(code_points(en[i]) <= (summary ? 240u : 160u));
      CHECK(code_points(zh[i]) <= (summary ? 120u : 85u));
    }
  }
}

TEST_CASE("lesson 2 computes the source article's 2-GPU numbers") {
  const Lesson lesson = shipped("02-three-primitives.json");
  REQUIRE(lesson.scenes.size() >= 3);
  SUBCASE("AllGather: both GPUs hold 1 to 8") {
    const Config& config = lesson.scenes[0].config;
    REQUIRE(config.op == Op::allgather);
    for (int rank = 0; rank < 2; ++rank)
      CHECK(final_values(config, rank) == std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8});
  }
  SUBCASE("AllReduce: both GPUs hold 6, 8, 10, 12") {
    const Config& config = lesson.scenes[1].config;
    REQUIRE(config.op == Op::allreduce);
    for (int rank = 0; rank < 2; ++rank)
      CHECK(final_values(config, rank) == std::vector<double>{6, 8, 10, 12});
  }
  SUBCASE("ReduceScatter: GPU 0 keeps 6, 8 and GPU 1 keeps 10, 12") {
    const Config& config = lesson.scenes[2].config;
    REQUIRE(config.op == Op::reducescatter);
    const Schedule schedule = make_schedule(config);
    CHECK(slot_values(config, 0, schedule.owned_slot[0]) == std::vector<double>{6, 8});
    CHECK(slot_values(config, 1, schedule.owned_slot[1]) == std::vector<double>{10, 12});
  }
}

TEST_CASE("lesson 1 averages the gradients it shows") {
  const Lesson lesson = shipped("01-why-synchronise.json");
  const Config& config = lesson.scenes.at(1).config;
  for (int rank = 0; rank < 2; ++rank)
    CHECK(final_values(config, rank) == std::vector<double>{1, -0.5, 0.5, 0.5});
}

TEST_CASE("lesson 3 follows block A through GPU 1 and GPU 2, as in the source article") {
  const Lesson lesson = shipped("03-ring-allgather.json");
  const LessonScene& scene = lesson.scenes.front();
  CHECK(scene.round_count == 3);
  const auto follow_a = std::find_if(scene.steps.begin(), scene.steps.end(), [](const LessonStep& step) {
    return step.caption.en.rfind("Follow A", 0) == 0;
  });
  REQUIRE(follow_a != scene.steps.end());
  CHECK(follow_a->highlight.transfers ==
        std::vector<TransferRef>{{1, 0, 1, 0}, {2, 1, 2, 0}, {3, 2, 3, 0}});
  REQUIRE(follow_a->zoom.has_value());
  CHECK(follow_a->zoom->view == View::ring);
}

TEST_CASE("lesson 4 ends where the source article's table does, and NCCL's order where NCCL does") {
  const Lesson lesson = shipped("04-ring-reducescatter.json");
  CHECK(make_schedule(lesson.scenes.at(0).config).owned_slot == std::vector<int>{1, 2, 3, 0});
  CHECK(make_schedule(lesson.scenes.at(1).config).owned_slot == std::vector<int>{0, 1, 2, 3});
  // Round 1 of the chunk-0 story: GPU 0 sends a0 to GPU 1.
  CHECK(lesson.scenes[0].steps.at(2).highlight.transfers == std::vector<TransferRef>{{1, 0, 1, 0}});
}

TEST_CASE("lesson 5's sums and byte counts are what the collective really does") {
  const Lesson lesson = shipped("05-allreduce-traffic.json");
  const Config& four = lesson.scenes.at(0).config;
  for (int rank = 0; rank < 4; ++rank)
    CHECK(final_values(four, rank) == std::vector<double>{52, 56, 60, 64, 68, 72, 76, 80});

  const Config& counted = lesson.scenes.at(1).config;
  const Traffic traffic = compute_traffic(make_schedule(counted), make_layout(counted),
                                          counted.dtype, counted.ranks);
  for (int rank = 0; rank < 4; ++rank) {
    CHECK(traffic.sent_after(rank, 3) == 24);
    CHECK(traffic.total_sent(rank) == 48);
    CHECK(traffic.total_received(rank) == 48);
  }
  CHECK(ring_allreduce_bytes_per_gpu(4, 32) == doctest::Approx(48));
  CHECK(ring_allreduce_bytes_per_gpu(4, 4e9) == doctest::Approx(6e9));

  const Config& eight = lesson.scenes.at(2).config;
  CHECK(make_schedule(eight).round_count() == 14);
  const Traffic traffic8 =
      compute_traffic(make_schedule(eight), make_layout(eight), eight.dtype, eight.ranks);
  CHECK(traffic8.total_sent(0) == 112);
  CHECK(lesson.scenes[2].steps.at(1).rounds->to == 14);
}

TEST_CASE("lesson 1's claims hold in the real training run") {
  const Lesson lesson = shipped("01-why-synchronise.json");
  const LessonScene& scene = lesson.scenes.front();
  auto backend = make_cpu_backend(1);
  SUBCASE("without synchronisation the weights differ after the first step") {
    TrainingRun run(training_options(scene, TrainStrategy::nosync), *backend);
    CHECK(run.step().parameter_spread > 0.0);
    const double after_one = run.history().back().parameter_spread_rms;
    for (int i = 0; i < 4; ++i) run.step();
    CHECK(run.history().back().parameter_spread_rms > after_one);
  }
  SUBCASE("with DDP they stay identical") {
    TrainingRun run(training_options(scene, TrainStrategy::ddp), *backend);
    for (int i = 0; i < 5; ++i) {
      const TrainingStepRecord& record = run.step();
      CHECK(record.parameter_spread == 0.0);
      CHECK(std::adjacent_find(record.checksums.begin(), record.checksums.end(),
                               std::not_equal_to<>()) == record.checksums.end());
    }
  }
}

TEST_CASE("lesson 6's memory and traffic figures are the memory model's") {
  const Lesson lesson = shipped("06-ddp-vs-zero2.json");
  const auto per_gpu = [&](const LessonScene& scene, Strategy strategy) {
    return estimate_memory(memory_query(scene, strategy));
  };
  const LessonScene& four = lesson.scenes.at(3);
  const LessonScene& eight = lesson.scenes.at(4);
  REQUIRE(four.config.ranks == 4);
  REQUIRE(eight.config.ranks == 8);
  CHECK(per_gpu(four, Strategy::ddp).largest().total() == 112'000'000'000);
  CHECK(per_gpu(eight, Strategy::ddp).largest().total() == 112'000'000'000);
  const MemoryEstimate zero2 = per_gpu(four, Strategy::zero2);
  CHECK(zero2.largest().total() == 38'500'000'000);
  CHECK(zero2.largest().parameters() == 14'000'000'000);
  CHECK(per_gpu(eight, Strategy::zero2).largest().total() == 26'250'000'000);
  CHECK(per_gpu(four, Strategy::ddp).bytes_sent_per_gpu.at(0) == 21'000'000'000);
  CHECK(zero2.bytes_sent_per_gpu.at(0) == 21'000'000'000);
  REQUIRE(zero2.communication.size() == 2);
  CHECK(zero2.communication[0].bytes_sent.at(0) == 10'500'000'000);
  CHECK(zero2.communication[1].bytes_sent.at(0) == 10'500'000'000);

  std::string everything;
  for (const std::string& text : all_texts(lesson, Language::en)) everything += text + "\n";
  for (std::string_view figure : {"112 GB", "38.5 GB", "26.25 GB", "21 GB", "10.5 GB", "14 GB"})
    CHECK(everything.find(figure) != std::string::npos);
  // ZeRO-2's gradient shard of GPU r is chunk r: the scene uses NCCL's order.
  const LessonScene& scatter = lesson.scenes.at(1);
  CHECK(scatter.config.op == Op::reducescatter);
  CHECK(make_schedule(scatter.config).owned_slot == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("lesson_frame plays rounds on a deterministic clock") {
  // Step 0: 2 s of text. Step 1: 1 s before, rounds 0..3 at 2 s each, 1 s after (8 s).
  // Step 2: 3 s holding round 3. Scene 1: rounds 1..2 at 0.5 s, pause 0.5 (1 s).
  const std::string text = R"({
  "schema": "ringviz.lesson/1",
  "title": {"en": "Clock", "zh": "时钟"},
  "summary": {"en": "Timing.", "zh": "计时。"},
  "scenes": [
    {"title": {"en": "A", "zh": "甲"}, "config": {"op": "allgather", "gpus": 4, "count": 1},
     "views": ["ring", "timeline"],
     "steps": [
       {"pause": 2, "caption": {"en": "intro", "zh": "开场"}},
       {"rounds": [0, 3], "seconds_per_round": 2, "pause_before": 1, "pause": 1,
        "caption": {"en": "play", "zh": "播放"}, "highlight": {"gpus": [2]},
        "zoom": {"view": "timeline", "scale": 3}},
       {"pause": 3, "caption": {"en": "hold", "zh": "停留"}}
     ]},
    {"title": {"en": "B", "zh": "乙"}, "config": {"op": "allreduce", "gpus": 2, "count": 4},
     "views": ["traffic"],
     "steps": [{"rounds": [1, 2], "seconds_per_round": 0.5, "pause": 0.5,
                "caption": {"en": "second", "zh": "第二"}}]}
  ]
})";
  const Lesson lesson = parse_lesson(text, "clock.json");
  CHECK(lesson.duration() == doctest::Approx(14.0));
  CHECK(lesson.scenes[1].start_seconds == doctest::Approx(13.0));
  CHECK(lesson_frame_count(lesson, 30) == 420);
  CHECK(lesson_frame_count(lesson, 24) == 336);

  SUBCASE("the intro holds the inputs") {
    const LessonFrame frame = lesson_frame(lesson, 0.0, Language::en);
    CHECK(frame.scene_index == 0);
    CHECK(frame.step_index == 0);
    CHECK(frame.round == 0);
    CHECK(frame.round_progress == 0.0);
    CHECK(frame.caption == "intro");
    CHECK(frame.zoom == nullptr);
    CHECK(frame.views->size() == 2);
  }
  SUBCASE("a step boundary belongs to the later step, which waits pause_before") {
    const LessonFrame frame = lesson_frame(lesson, 2.0, Language::zh);
    CHECK(frame.step_index == 1);
    CHECK(frame.caption == "播放");
    CHECK(frame.round == 0);
    CHECK(frame.round_progress == 0.0);
    REQUIRE(frame.zoom != nullptr);
    CHECK(frame.zoom->view == View::timeline);
    CHECK(frame.zoom->scale == 3.0);
    CHECK(frame.highlight->gpus == std::vector<int>{2});
  }
  SUBCASE("rounds advance with a fraction for the transfers in flight") {
    // 2 + 1 + 2.5 s: half-way through the second round of the range.
    const LessonFrame frame = lesson_frame(lesson, 5.5, Language::en);
    CHECK(frame.round == 1);
    CHECK(frame.round_progress == doctest::Approx(0.25));
    CHECK(frame.step_time == doctest::Approx(3.5));
    CHECK(frame.step_progress == doctest::Approx(3.5 / 8.0));
  }
  SUBCASE("after the rounds the final state holds through the pause") {
    const LessonFrame frame = lesson_frame(lesson, 9.5, Language::en);
    CHECK(frame.step_index == 1);
    CHECK(frame.round == 3);
    CHECK(frame.round_progress == 0.0);
  }
  SUBCASE("a step without rounds holds the state the previous step left") {
    const LessonFrame frame = lesson_frame(lesson, 11.0, Language::en);
    CHECK(frame.step_index == 2);
    CHECK(frame.caption == "hold");
    CHECK(frame.round == 3);
    CHECK(frame.highlight->empty());
  }
  SUBCASE("the next scene starts from its own range") {
    const LessonFrame frame = lesson_frame(lesson, 13.25, Language::en);
    CHECK(frame.scene_index == 1);
    CHECK(frame.scene == &lesson.scenes[1]);
    CHECK(frame.round == 1);
    CHECK(frame.round_progress == doctest::Approx(0.5));
    CHECK((*frame.views == std::vector<View>{View::traffic}));
  }
  SUBCASE("times outside the lesson are clamped") {
    const LessonFrame before = lesson_frame(lesson, -5.0, Language::en);
    CHECK(before.time == 0.0);
    CHECK(before.step_index == 0);
    const LessonFrame after = lesson_frame(lesson, 100.0, Language::en);
    CHECK(after.time == doctest::Approx(14.0));
    CHECK(after.scene_index == 1);
    CHECK(after.round == 2);
    CHECK(after.step_progress == doctest::Approx(1.0));
    const LessonFrame nan = lesson_frame(lesson, std::nan(""), Language::en);
    CHECK(nan.time == 0.0);
  }
  SUBCASE("frames at k / fps never go backwards") {
    int last_scene = 0;
    int last_position = 0;
    for (long long k = 0; k < lesson_frame_count(lesson, 30); ++k) {
      const LessonFrame frame = lesson_frame(lesson, static_cast<double>(k) / 30.0, Language::en);
      const int position = frame.scene_index * 1000 + frame.step_index;
      CHECK(position >= last_position);
      if (frame.scene_index == last_scene && frame.step_index == 1)
        CHECK(frame.round + frame.round_progress >= 0.0);
      last_scene = frame.scene_index;
      last_position = position;
    }
  }
}

TEST_CASE("lesson_frame plays training iterations") {
  const Lesson lesson = parse_lesson(small_lesson(
      R"({"op": "allreduce", "gpus": 2, "count": 4})",
      R"([{"iterations": [0, 10], "seconds_per_iteration": 0.5, "pause": 1,
           "caption": {"en": "train", "zh": "训练"}},
          {"pause": 2, "caption": {"en": "look", "zh": "看"}}])",
      R"(["training"])", R"(, "training": {"iterations": 10, "strategies": ["nosync", "ddp"]})"));
  CHECK(lesson.duration() == doctest::Approx(8.0));
  const LessonFrame playing = lesson_frame(lesson, 2.25, Language::en);
  CHECK(playing.iteration == 4);
  CHECK(playing.iteration_progress == doctest::Approx(0.5));
  CHECK(playing.round == 0);
  const LessonFrame held = lesson_frame(lesson, 7.0, Language::en);
  CHECK(held.iteration == 10);
  CHECK(held.iteration_progress == 0.0);
}

TEST_CASE("a scene's config may pipeline the ring with channels and slices") {
  const std::string step = R"([{"rounds": [0, 3], "caption": {"en": "go", "zh": "走"}}])";
  const Lesson lesson = parse_lesson(small_lesson(R"({"gpus": 4, "count": 16, "channels": 2, "slices": 3})", step));
  CHECK(lesson.scenes[0].config.channels == 2);
  CHECK(lesson.scenes[0].config.slices == 3);
}

TEST_CASE("views have closed names that round-trip") {
  for (View view : kAllViews) CHECK(parse_view(view_name(view)) == view);
  CHECK_FALSE(parse_view("rings").has_value());
  CHECK_FALSE(parse_view("").has_value());
}

TEST_CASE("a bad lesson is rejected with the file, the position and the field") {
  const std::string good_step =
      R"([{"rounds": [0, 3], "caption": {"en": "go", "zh": "走"}}])";
  REQUIRE_NOTHROW(parse_lesson(small_lesson(kAllGather4, good_step), "good.json"));

  SUBCASE("an unknown field") {
    const std::string message = error_of(small_lesson(
        kAllGather4, R"([{"rounds": [0, 3], "speed": 2, "caption": {"en": "go", "zh": "走"}}])"));
    CHECK(message ==
          "bad.json:10:36: /scenes/0/steps/0/speed: speed: unknown field (expected rounds, "
          "iterations, seconds_per_round, seconds_per_iteration, pause_before, pause, caption, "
          "highlight, zoom)");
  }
  SUBCASE("a field of the wrong type") {
    const std::string message = error_of(small_lesson(
        kAllGather4, R"([{"rounds": [0, 3], "pause": "2", "caption": {"en": "go", "zh": "走"}}])"));
    CHECK(message == "bad.json:10:45: /scenes/0/steps/0/pause: pause: expected a number, got a string");
  }
  SUBCASE("a caption without Chinese") {
    const std::string message =
        error_of(small_lesson(kAllGather4, R"([{"rounds": [0, 3], "caption": {"en": "go"}}])"));
    CHECK(message ==
          "bad.json:10:47: /scenes/0/steps/0/caption: zh: missing (every text needs both en and zh)");
  }
  SUBCASE("a caption without English") {
    const std::string message =
        error_of(small_lesson(kAllGather4, R"([{"rounds": [0, 3], "caption": {"zh": "走"}}])"));
    CHECK(message.find("/scenes/0/steps/0/caption: en: missing") != std::string::npos);
  }
  SUBCASE("a caption in an unknown language") {
    const std::string message = error_of(small_lesson(
        kAllGather4, R"([{"rounds": [0, 3], "caption": {"en": "go", "zh": "走", "fr": "va"}}])"));
    CHECK(message.find("/scenes/0/steps/0/caption/fr: fr: unknown field (expected en, zh)") !=
          std::string::npos);
  }
  SUBCASE("an empty caption") {
    const std::string message =
        error_of(small_lesson(kAllGather4, R"([{"pause": 1, "caption": {"en": " ", "zh": "走"}}])"));
    CHECK(message.find("/scenes/0/steps/0/caption/en: en: is empty") != std::string::npos);
  }
  SUBCASE("a round past the end of the schedule") {
    const std::string message = error_of(
        small_lesson(kAllGather4, R"([{"rounds": [0, 4], "caption": {"en": "go", "zh": "走"}}])"));
    CHECK(message ==
          "bad.json:10:32: /scenes/0/steps/0/rounds/1: rounds: 4 is out of range (0 to 3; ring "
          "allgather on 4 GPUs has 3 rounds)");
  }
  SUBCASE("a negative round") {
    const std::string message = error_of(
        small_lesson(kAllGather4, R"([{"rounds": [-1, 2], "caption": {"en": "go", "zh": "走"}}])"));
    CHECK(message.find("/scenes/0/steps/0/rounds/0: rounds: -1 is out of range") != std::string::npos);
  }
  SUBCASE("a range running backwards") {
    const std::string message = error_of(
        small_lesson(kAllGather4, R"([{"rounds": [2, 1], "caption": {"en": "go", "zh": "走"}}])"));
    CHECK(message.find("/scenes/0/steps/0/rounds: rounds: from (2) is after to (1)") !=
          std::string::npos);
  }
  SUBCASE("a range that is not a pair") {
    const std::string message = error_of(
        small_lesson(kAllGather4, R"([{"rounds": 3, "caption": {"en": "go", "zh": "走"}}])"));
    CHECK(message.find("rounds: expected [from, to], got an integer") != std::string::npos);
  }
  SUBCASE("an unknown view") {
    const std::string message =
        error_of(small_lesson(kAllGather4, good_step, R"(["ring", "rings"])"));
    CHECK(message ==
          "bad.json:9:25: /scenes/0/views/1: views: unknown view 'rings' (expected ring, "
          "round_table, traffic, timeline, memory, training, compare, job)");
  }
  SUBCASE("a view listed twice") {
    const std::string message = error_of(small_lesson(kAllGather4, good_step, R"(["ring", "ring"])"));
    CHECK(message.find("/scenes/0/views/1: views: 'ring' is listed twice") != std::string::npos);
  }
  SUBCASE("a field given twice") {
    const std::string message = error_of(small_lesson(
        kAllGather4, R"([{"pause": 1, "pause": 2, "caption": {"en": "go", "zh": "走"}}])"));
    // Refused by the reader every JSON file goes through (core/input/json_input.h).
    CHECK(message == "bad.json:10:30: the key \"pause\" appears twice in one object (first on line 10); keep one");
  }
  SUBCASE("text that is not JSON") {
    const std::string message = error_of(small_lesson(kAllGather4, R"([{"pause": 1,}])"));
    CHECK(message.rfind("bad.json:10:", 0) == 0);
    CHECK(message.find("not valid JSON") != std::string::npos);
  }
  SUBCASE("a config value the command line would reject") {
    const std::string message =
        error_of(small_lesson(R"({"op": "allscatter", "gpus": 4})", good_step));
    CHECK(message ==
          "bad.json:8:24: /scenes/0/config/op: op: unknown value 'allscatter' (expected "
          "allgather, reducescatter, allreduce, broadcast, alltoall or sendrecv)");
  }
  SUBCASE("a config field of the wrong type") {
    const std::string message = error_of(small_lesson(R"({"op": "allgather", "gpus": "4"})", good_step));
    CHECK(message.find("/scenes/0/config/gpus: gpus: expected an integer, got a string") !=
          std::string::npos);
  }
  SUBCASE("too many GPUs") {
    const std::string message = error_of(small_lesson(R"({"gpus": 300})", good_step));
    CHECK(message.find("/scenes/0/config/gpus: gpus: 300 is out of range (1 to 256)") !=
          std::string::npos);
  }
  SUBCASE("too many slices") {
    const std::string message = error_of(small_lesson(R"({"gpus": 4, "slices": 65})", good_step));
    CHECK(message.find("/scenes/0/config/slices: slices: 65 is out of range (1 to 64)") != std::string::npos);
  }
  SUBCASE("an inline input table of the wrong shape") {
    const std::string message =
        error_of(small_lesson(R"({"gpus": 2, "count": 2, "init": [[1, 2], [3]]})", good_step));
    CHECK(message.find("/scenes/0/config/init: init: row 1 of the value table has 1 values") !=
          std::string::npos);
  }
  SUBCASE("inputs from a file") {
    const std::string message = error_of(small_lesson(R"({"init": "file:x.json"})", good_step));
    CHECK(message.find("/scenes/0/config/init: init: file: inputs are not allowed") !=
          std::string::npos);
  }
  SUBCASE("buffers too big to show") {
    const std::string message = error_of(small_lesson(R"({"gpus": 8, "count": 100000000})", good_step));
    CHECK(message.find("/scenes/0/config/count: count:") != std::string::npos);
  }
  SUBCASE("an unknown config field") {
    const std::string message = error_of(small_lesson(R"({"ranks": 4})", good_step));
    CHECK(message.find("/scenes/0/config/ranks: ranks: unknown field (expected op, algo, order, "
                       "gpus, count, dtype, reduce, init, channels, slices)") != std::string::npos);
  }
  SUBCASE("the memory view without its model") {
    const std::string message = error_of(small_lesson(kAllGather4, good_step, R"(["memory"])"));
    CHECK(message.find("/scenes/0: memory: missing") != std::string::npos);
  }
  SUBCASE("a memory strategy nobody knows") {
    const std::string message = error_of(small_lesson(
        kAllGather4, good_step, R"(["memory"])",
        R"(, "memory": {"params": "7B", "strategies": ["ddp", "zero4"]})"));
    CHECK(message.find("/scenes/0/memory/strategies/1: strategies: unknown value 'zero4'") !=
          std::string::npos);
  }
  SUBCASE("a parameter count that is not one") {
    const std::string message = error_of(small_lesson(
        kAllGather4, good_step, R"(["memory"])", R"(, "memory": {"params": "7X", "strategies": ["ddp"]})"));
    CHECK(message.find("/scenes/0/memory/params: params: '7X' is not a number of parameters") !=
          std::string::npos);
  }
  SUBCASE("a training run in a type it cannot train in") {
    const std::string message = error_of(small_lesson(
        R"({"gpus": 2, "dtype": "i32"})", good_step, R"(["training"])",
        R"(, "training": {"iterations": 5, "strategies": ["ddp"]})"));
    CHECK(message.find("/scenes/0/training: training:") != std::string::npos);
  }
  SUBCASE("an algorithm without a schedule for the operation") {
    const std::string message = error_of(small_lesson(R"({"op": "allgather", "algo": "tree"})", good_step));
    CHECK(message.find("/scenes/0/config/algo: algo: tree has no allgather schedule") != std::string::npos);
  }
  SUBCASE("iterations in a scene without a training run") {
    const std::string message = error_of(small_lesson(
        kAllGather4, R"([{"iterations": [0, 3], "caption": {"en": "go", "zh": "走"}}])"));
    CHECK(message.find("/scenes/0/steps/0/iterations: iterations: only a scene with the training") !=
          std::string::npos);
  }
  SUBCASE("a speed without anything to play") {
    const std::string message = error_of(small_lesson(
        kAllGather4, R"([{"seconds_per_round": 1, "caption": {"en": "go", "zh": "走"}}])"));
    CHECK(message.find("/scenes/0/steps/0/seconds_per_round: seconds_per_round: only makes sense") !=
          std::string::npos);
  }
  SUBCASE("a step that lasts no time") {
    const std::string message = error_of(small_lesson(
        kAllGather4, R"([{"rounds": [1, 1], "pause": 0, "caption": {"en": "go", "zh": "走"}}])"));
    CHECK(message.find("/scenes/0/steps/0: pause: the step lasts 0 seconds") != std::string::npos);
  }
  SUBCASE("a highlighted GPU that does not exist") {
    const std::string message = error_of(small_lesson(
        kAllGather4, R"([{"pause": 1, "caption": {"en": "go", "zh": "走"}, "highlight": {"gpus": [4]}}])"));
    CHECK(message.find("/scenes/0/steps/0/highlight/gpus/0: gpus: 4 is out of range (0 to 3)") !=
          std::string::npos);
  }
  SUBCASE("a highlighted transfer in a round that does not exist") {
    const std::string message = error_of(small_lesson(
        kAllGather4,
        R"([{"pause": 1, "caption": {"en": "go", "zh": "走"}, "highlight": {"transfers": [{"round": 0}]}}])"));
    CHECK(message.find("/scenes/0/steps/0/highlight/transfers/0/round: round: 0 is out of range (1 to 3)") !=
          std::string::npos);
  }
  SUBCASE("a zoom on a view the scene does not show") {
    const std::string message = error_of(small_lesson(
        kAllGather4,
        R"([{"pause": 1, "caption": {"en": "go", "zh": "走"}, "zoom": {"view": "memory"}}])"));
    CHECK(message.find("/scenes/0/steps/0/zoom/view: view: 'memory' is not one of this scene's views (ring)") !=
          std::string::npos);
  }
  SUBCASE("a lesson of another schema") {
    std::string text = small_lesson(kAllGather4, good_step);
    text.replace(text.find("ringviz.lesson/1"), 16, "ringviz.trace/1");
    CHECK(error_of(text).find("bad.json:2:13: /schema: schema: 'ringviz.trace/1'") == 0);
  }
  SUBCASE("a lesson without scenes") {
    const std::string message = error_of(
        R"({"schema": "ringviz.lesson/1", "title": {"en": "a", "zh": "甲"}, "summary": {"en": "a", "zh": "甲"}, "scenes": []})");
    CHECK(message.find("/scenes: scenes: expected a non-empty array of scenes") != std::string::npos);
  }
  SUBCASE("a document that is not an object") {
    CHECK(error_of("[1, 2]") == "bad.json:1:1: /: lesson: expected an object, got an array");
  }
}

TEST_CASE("a lesson file's errors name the file, and unreadable files say so") {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "ringviz_test_lesson_bad.json";
  {
    std::ofstream file(path);
    file << small_lesson(kAllGather4, R"([{"pause": 1, "caption": {"en": "go"}}])");
  }
  try {
    load_lesson_file(path);
    FAIL("expected an InputError");
  } catch (const InputError& error) {
    const std::string message = error.what();
    CHECK(message.rfind(path.string() + ":10:", 0) == 0);
    CHECK(message.find("caption: zh: missing") != std::string::npos);
  }
  std::filesystem::remove(path);
  CHECK_THROWS_AS(load_lesson_file(path), InputError);
}

TEST_CASE("the lesson folder is found from an executable's location") {
  const auto folder = find_lesson_folder(kLessonFolder.parent_path().parent_path() / "build" /
                                         "app" / "ringviz");
  REQUIRE(folder.has_value());
  CHECK(std::filesystem::equivalent(*folder, kLessonFolder));
}

TEST_CASE("the example in docs/lessons.md is a valid lesson of the length it states") {
  std::ifstream file(kLessonFolder.parent_path().parent_path() / "docs" / "lessons.md");
  REQUIRE(file);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::size_t start = text.find("```json\n");
  REQUIRE(start != std::string::npos);
  const std::size_t end = text.find("```", start + 8);
  const Lesson example = parse_lesson(text.substr(start + 8, end - start - 8), "docs/lessons.md");
  CHECK(example.duration() == doctest::Approx(19.5));
  CHECK(text.find("lasts 5 + (2.5 + 4) + (1 + 2 × 1.5 + 4) = 19.5 seconds") != std::string::npos);
}

TEST_CASE("a memory block that names a model makes the memory view show that transformer's iteration") {
  const std::string steps = R"([{"pause": 1, "caption": {"en": "go", "zh": "走"}}])";
  const Lesson lesson = parse_lesson(
      small_lesson(kAllGather4, steps, R"(["memory"])",
                   R"(, "memory": {"model": "llama3-8b", "strategies": ["zero3"], "seq": 8192, "micro_batch": 2,
                       "recompute": "selective", "offload": "optimizer", "gpu_memory_gb": 141, "accelerator": "a100"})"),
      "iteration.json");
  const LessonMemory& memory = *lesson.scenes.front().memory;
  REQUIRE(memory.iteration.has_value());
  const IterationQuery& query = *memory.iteration;
  CHECK(query.model.name == "llama3-8b");
  CHECK(memory.params == query.model.parameters);
  CHECK(query.strategy == Strategy::zero3);
  CHECK(query.seq == 8192);
  CHECK(query.micro_batch == 2);
  CHECK(query.recompute == Recompute::selective);
  CHECK(query.offload == Offload::optimizer);
  CHECK(query.gpu_memory_bytes == 141e9);
  CHECK(query.accelerator == "a100");
  CHECK(query.gpus == 4);  // the scene's config

  const Lesson custom = parse_lesson(
      small_lesson(kAllGather4, steps, R"(["memory"])",
                   R"(, "memory": {"model": "custom", "params": "7B", "layers": 32, "hidden": 4096, "heads": 32,
                       "vocab": 32000, "strategies": ["ddp"]})"),
      "custom.json");
  const IterationQuery& shape = *custom.scenes.front().memory->iteration;
  CHECK(shape.model.parameters == 7'000'000'000);
  CHECK(shape.model.layers == 32);
  CHECK(shape.model.vocab == 32000);
  CHECK(shape.seq == IterationQuery{}.seq);

  const Lesson plain = parse_lesson(
      small_lesson(kAllGather4, steps, R"(["memory"])", R"(, "memory": {"params": "7B", "strategies": ["ddp"]})"),
      "plain.json");
  CHECK_FALSE(plain.scenes.front().memory->iteration.has_value());
}

TEST_CASE("a whole-iteration memory block is refused where it is wrong, naming the field") {
  const std::string steps = R"([{"pause": 1, "caption": {"en": "go", "zh": "走"}}])";
  const auto error_with = [&](std::string_view memory) {
    return error_of(small_lesson(kAllGather4, steps, R"(["memory"])", std::string(R"(, "memory": )") + std::string(memory)));
  };
  CHECK(error_with(R"({"model": "llama3-8b", "strategies": ["ddp", "zero3"]})")
            .find("/scenes/0/memory/strategies: strategies: a whole iteration is shown under one strategy") !=
        std::string::npos);
  CHECK(error_with(R"({"model": "llama3-8b", "params": "8B", "strategies": ["ddp"]})")
            .find("/scenes/0/memory/params: params: given with the preset 'llama3-8b'") != std::string::npos);
  CHECK(error_with(R"({"model": "llama9", "strategies": ["ddp"]})").find("/scenes/0/memory/model: model:") !=
        std::string::npos);
  CHECK(error_with(R"({"params": "7B", "strategies": ["ddp"], "seq": 4096})")
            .find("/scenes/0/memory/seq: seq: given without \"model\"") != std::string::npos);
  CHECK(error_with(R"({"model": "custom", "params": "7B", "strategies": ["ddp"]})")
            .find("/scenes/0/memory: layers: missing") != std::string::npos);
  CHECK(error_with(R"({"model": "llama3-8b", "strategies": ["ddp"], "recompute": "some"})")
            .find("/scenes/0/memory/recompute: recompute:") != std::string::npos);
  CHECK(error_with(R"({"model": "llama3-8b", "strategies": ["ddp"], "seq": 0})")
            .find("/scenes/0/memory/seq: seq: 0 is out of range") != std::string::npos);
  // Tensor and sequence parallelism, the attention kernel and the block: the CLI's checks, at the field.
  CHECK(error_with(R"({"model": "llama3-8b", "strategies": ["ddp"], "tp": 3})").find("/scenes/0/memory: memory: tp: 3 does not divide the GPUs (4)") !=
        std::string::npos);
  CHECK(error_with(R"({"model": "llama3-8b", "strategies": ["ddp"], "tp": 0})")
            .find("/scenes/0/memory/tp: tp: 0 is out of range") != std::string::npos);
  CHECK(error_with(R"({"model": "llama3-8b", "strategies": ["ddp"], "sp": true})").find("/scenes/0/memory: memory: sp: sequence parallelism") !=
        std::string::npos);
  CHECK(error_with(R"({"model": "llama3-8b", "strategies": ["ddp"], "tp": 2, "sp": "yes"})")
            .find("/scenes/0/memory/sp: sp: expected true or false, got a string") != std::string::npos);
  CHECK(error_with(R"({"model": "llama3-8b", "strategies": ["ddp"], "attention": "sparse"})")
            .find("/scenes/0/memory/attention: attention:") != std::string::npos);
  CHECK(error_with(R"({"model": "llama3-8b", "strategies": ["ddp"], "block": "moe"})")
            .find("/scenes/0/memory/block: block:") != std::string::npos);
  CHECK(error_with(R"({"params": "7B", "strategies": ["ddp"], "tp": 2})")
            .find("/scenes/0/memory/tp: tp: given without \"model\"") != std::string::npos);
}

TEST_CASE("a whole-iteration memory block sets tensor and sequence parallelism, the attention kernel and the block") {
  const std::string steps = R"([{"pause": 1, "caption": {"en": "go", "zh": "走"}}])";
  const Lesson lesson = parse_lesson(
      small_lesson(kAllGather4, steps, R"(["memory"])",
                   R"(, "memory": {"model": "llama3-8b", "strategies": ["ddp"], "tp": 4, "sp": true,
                       "attention": "flash", "block": "model"})"),
      "tp.json");
  const IterationQuery& query = *lesson.scenes.front().memory->iteration;
  CHECK(query.tp == 4);
  CHECK(query.sp);
  CHECK(query.attention == Attention::flash);
  CHECK(query.block == Block::model);
  // Left out, they are the CLI's defaults.
  const Lesson plain = parse_lesson(
      small_lesson(kAllGather4, steps, R"(["memory"])", R"(, "memory": {"model": "llama3-8b", "strategies": ["ddp"]})"),
      "plain.json");
  const IterationQuery& defaults = *plain.scenes.front().memory->iteration;
  CHECK(defaults.tp == 1);
  CHECK_FALSE(defaults.sp);
  CHECK(defaults.attention == Attention::eager);
  CHECK(defaults.block == IterationQuery{}.block);
}

TEST_CASE("lessons 8 and 9 state the iteration model's peaks, and lesson 8 starts from the source article's 112 GB") {
  for (const char* name : {"08-112gb-in-80gb.json", "09-zero-shards-states.json"}) {
    const Lesson lesson = shipped(name);
    for (const LessonScene& scene : lesson.scenes) {
      CAPTURE(name);
      REQUIRE(scene.memory.has_value());
      REQUIRE(scene.memory->iteration.has_value());
      const IterationEstimate estimate = estimate_iteration(*scene.memory->iteration);
      const std::string peak = format_bytes(static_cast<double>(estimate.peak.memory.total()), ByteUnit::gb);
      std::string captions;
      for (const LessonStep& step : scene.steps) captions += step.caption.en + "\n";
      CAPTURE(captions);
      CHECK(captions.find(peak) != std::string::npos);
    }
  }
  const Lesson ledger = shipped("08-112gb-in-80gb.json");
  const IterationEstimate first = estimate_iteration(*ledger.scenes.front().memory->iteration);
  CHECK(first.model_states.largest().total() == 112'000'000'000);
  CHECK_FALSE(first.fits);
  CHECK(estimate_iteration(*ledger.scenes.back().memory->iteration).fits);
  const Lesson zero = shipped("09-zero-shards-states.json");
  CHECK_FALSE(estimate_iteration(*zero.scenes[2].memory->iteration).fits);  // selective
  CHECK(estimate_iteration(*zero.scenes[3].memory->iteration).fits);        // full
}

namespace ringviz {
namespace {

TEST_CASE("lesson 10 quotes the cost model's times for the ring on ring:8 with slices and with channels") {
  const Lesson lesson = shipped("10-from-the-article-to-nccl.json");
  std::string captions;
  for (const LessonScene& scene : lesson.scenes)
    for (const LessonStep& step : scene.steps) captions += step.caption.en + "\n";
  auto ring_ms = [](std::int64_t bytes, int slices, int channels) {
    const Config config = ConfigBuilder().ranks(8).count(bytes / 4).slices(slices).channels(channels);
    char text[32];
    std::snprintf(text, sizeof text, "%.2f ms", estimate_cost(config, topology_preset("ring:8"), false).seconds * 1e3);
    return std::string(text);
  };
  CAPTURE(captions);
  for (int slices : {1, 4}) CHECK(captions.find(ring_ms(std::int64_t{64} << 20, slices, 1)) != std::string::npos);
  for (int channels : {1, 2, 4, 8})
    CHECK(captions.find(ring_ms(std::int64_t{256} << 20, 1, channels)) != std::string::npos);
  // The scenes run the ring lock-step, then sliced, then on channels as well.
  REQUIRE(lesson.scenes.size() == 3);
  CHECK(lesson.scenes[0].config.slices == 1);
  CHECK(lesson.scenes[1].config.slices == 4);
  CHECK(lesson.scenes[2].config.channels == 2);
}

}  // namespace
}  // namespace ringviz
