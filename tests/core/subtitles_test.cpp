// Subtitles of a recorded lesson (core/teaching/subtitles.h): timestamp formats, one cue per
// caption on screen, cues clipped to the recorded window and shifted to video time, and the
// SubRip / WebVTT files as players read them.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#include "core/model/text.h"
#include "core/teaching/lesson.h"
#include "core/teaching/subtitles.h"
#include "core/teaching/video_frames.h"

using namespace ringviz;
namespace fs = std::filesystem;

namespace {

const fs::path kLessonFolder = fs::path(RINGVIZ_SOURCE_DIR) / "assets" / "lessons";

// Steps on the lesson clock: "intro" [0, 2), "play" [2, 10), "hold" [10, 13), "second" [13, 14).
Lesson clock_lesson(const std::string& second_caption = "second") {
  return parse_lesson(R"({
  "schema": "ringviz.lesson/1",
  "title": {"en": "Clock", "zh": "时钟"},
  "summary": {"en": "Timing.", "zh": "计时。"},
  "scenes": [
    {"title": {"en": "A", "zh": "甲"}, "config": {"op": "allgather", "gpus": 4, "count": 1},
     "views": ["ring"],
     "steps": [
       {"pause": 2, "caption": {"en": "intro", "zh": "开场：GPU 0 持有「1」"}},
       {"rounds": [0, 3], "seconds_per_round": 2, "pause_before": 1, "pause": 1,
        "caption": {"en": "play", "zh": "播放"}},
       {"pause": 3, "caption": {"en": "hold", "zh": "停留"}}
     ]},
    {"title": {"en": "B", "zh": "乙"}, "config": {"op": "allreduce", "gpus": 2, "count": 4},
     "views": ["ring"],
     "steps": [{"pause": 1, "caption": {"en": ")" + second_caption + R"(", "zh": "第二"}}]}
  ]
})",
                      "clock.json");
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool valid_utf8(const std::string& text) {
  std::size_t at = 0;
  while (at < text.size())
    if (next_code_point(text, at) == U'\uFFFD') return false;
  return true;
}

}  // namespace

TEST_CASE("subtitle timestamps: SubRip with a comma, WebVTT with a point, rounded to the millisecond") {
  CHECK(srt_timestamp(1.5) == "00:00:01,500");
  CHECK(webvtt_timestamp(1.5) == "00:00:01.500");
  CHECK(srt_timestamp(0) == "00:00:00,000");
  CHECK(webvtt_timestamp(3723.004) == "01:02:03.004");
  CHECK(srt_timestamp(59.9996) == "00:01:00,000");  // the carry reaches the minutes
  CHECK(srt_timestamp(1.0 / 3.0) == "00:00:00,333");
  CHECK(srt_timestamp(-2) == "00:00:00,000");
  CHECK(srt_timestamp(360000) == "100:00:00,000");  // hours grow rather than wrap
}

TEST_CASE("a whole recording has one cue per caption, in order, back to back") {
  const Lesson lesson = clock_lesson();
  SubtitleWindow window;
  window.fps = 30;
  const std::vector<SubtitleCue> cues = subtitle_cues(lesson, Language::en, window);
  REQUIRE(cues.size() == 4);
  const double starts[] = {0, 2, 10, 13}, ends[] = {2, 10, 13, 14};
  const char* texts[] = {"intro", "play", "hold", "second"};
  for (std::size_t i = 0; i < cues.size(); ++i) {
    CHECK(cues[i].start == doctest::Approx(starts[i]));
    CHECK(cues[i].end == doctest::Approx(ends[i]));
    CHECK(cues[i].text == texts[i]);
  }
  // The Chinese captions, byte for byte.
  const std::vector<SubtitleCue> zh = subtitle_cues(lesson, Language::zh, window);
  REQUIRE(zh.size() == 4);
  CHECK(zh[0].text == "开场：GPU 0 持有「1」");
  CHECK(zh[3].text == "第二");
}

TEST_CASE("--from and --seconds clip the cues to the window and shift them to video time") {
  const Lesson lesson = clock_lesson();
  SubtitleWindow window;
  window.fps = 30;
  window.from = 3;
  window.seconds = 8;  // lesson 3 ... 11: the end of "play" and the start of "hold"
  std::vector<SubtitleCue> cues = subtitle_cues(lesson, Language::en, window);
  REQUIRE(cues.size() == 2);
  CHECK(cues[0].text == "play");
  CHECK(cues[0].start == doctest::Approx(0));
  CHECK(cues[0].end == doctest::Approx(7));
  CHECK(cues[1].text == "hold");
  CHECK(cues[1].start == doctest::Approx(7));
  CHECK(cues[1].end == doctest::Approx(8));

  SUBCASE("a title card before the lesson moves every cue later") {
    window.video_offset = 2.5;
    cues = subtitle_cues(lesson, Language::en, window);
    REQUIRE(cues.size() == 2);
    CHECK(cues[0].start == doctest::Approx(2.5));
    CHECK(cues[0].end == doctest::Approx(9.5));
    CHECK(cues[1].end == doctest::Approx(10.5));
  }
  SUBCASE("without --seconds the window runs to the lesson's end") {
    window.seconds.reset();
    cues = subtitle_cues(lesson, Language::en, window);
    REQUIRE(cues.size() == 3);
    CHECK(cues.back().text == "second");
    CHECK(cues.back().end == doctest::Approx(11));
  }
  SUBCASE("recording past the end holds the last caption") {
    window.from = 12;
    window.seconds = 5;
    cues = subtitle_cues(lesson, Language::en, window);
    REQUIRE(cues.size() == 2);
    CHECK(cues[1].text == "second");
    CHECK(cues[1].start == doctest::Approx(1));
    CHECK(cues[1].end == doctest::Approx(5));
  }
}

TEST_CASE("cue times fall on the frames that show the caption") {
  const Lesson lesson = clock_lesson();
  SubtitleWindow window;
  window.fps = 4;
  window.from = 0.1;  // frames show 0.1, 0.35, 0.6, ...: no frame lands on a step boundary
  const std::vector<SubtitleCue> cues = subtitle_cues(lesson, Language::en, window);
  REQUIRE(cues.size() == 4);
  CHECK(cues[1].start == doctest::Approx(2.0));  // frame 8 shows 2.1, the first time past 2
  CHECK(cues[3].start == doctest::Approx(13.0)); // frame 52 shows 13.1
  CHECK(cues[3].end == doctest::Approx(subtitle_frame_count(lesson, window) / 4.0));
  for (const SubtitleCue& cue : cues) {
    const long long first = std::llround(cue.start * window.fps);
    const long long last = std::llround(cue.end * window.fps) - 1;
    CHECK(lesson_frame(lesson, window.from + first / 4.0, Language::en).caption == cue.text);
    CHECK(lesson_frame(lesson, window.from + last / 4.0, Language::en).caption == cue.text);
  }
}

TEST_CASE("cue text: lines trimmed, blank lines dropped, blank captions give no cue") {
  Lesson lesson = clock_lesson("  two\\n\\n  lines \\n");
  SubtitleWindow window;
  window.fps = 10;
  std::vector<SubtitleCue> cues = subtitle_cues(lesson, Language::en, window);
  REQUIRE(cues.size() == 4);
  CHECK(cues[3].text == "two\nlines");
  lesson.scenes[0].steps[1].caption.en = " \n ";
  cues = subtitle_cues(lesson, Language::en, window);
  REQUIRE(cues.size() == 3);
  CHECK(cues[1].text == "hold");
}

TEST_CASE("SubRip and WebVTT files: numbered cues, header, blank lines between, markup escaped") {
  const std::vector<SubtitleCue> cues = {{0, 1.5, "a < b & c"}, {1.5, 62.25, "两行\n第二行"}};
  CHECK(format_srt(cues) ==
        "1\n00:00:00,000 --> 00:00:01,500\na < b & c\n\n"
        "2\n00:00:01,500 --> 00:01:02,250\n两行\n第二行\n");
  CHECK(format_webvtt(cues) ==
        "WEBVTT\n\n"
        "00:00:00.000 --> 00:00:01.500\na &lt; b &amp; c\n\n"
        "00:00:01.500 --> 00:01:02.250\n两行\n第二行\n");
  CHECK(format_srt({}).empty());
  CHECK(format_webvtt({}) == "WEBVTT\n");
}

TEST_CASE("subtitle files go beside the video, under its name") {
  CHECK(subtitle_path("out/lesson.mp4", false, "05-x", ".srt") == fs::path("out/lesson.srt"));
  CHECK(subtitle_path("clip.gif", false, "05-x", ".vtt") == fs::path("clip.vtt"));
  CHECK(subtitle_path("frames", true, "05-x", ".srt") == fs::path("frames.srt"));
  CHECK(subtitle_path("out/frames/", true, "05-x", ".vtt") == fs::path("out/frames.vtt"));
  CHECK(subtitle_path("frames.d", true, "05-x", ".srt") == fs::path("frames.d.srt"));
  CHECK(subtitle_path("./", true, "05-x", ".srt") == fs::path("./05-x.srt"));
}

TEST_CASE("both files are written whole, or neither is left") {
  const fs::path folder = fs::temp_directory_path() / ("ringviz-subtitles-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  const std::vector<SubtitleCue> cues = {{0, 2, "开场"}};
  std::string error;
  REQUIRE(write_subtitle_files(cues, folder / "x.srt", folder / "x.vtt", error));
  CHECK(read_file(folder / "x.srt") == format_srt(cues));
  CHECK(read_file(folder / "x.vtt") == format_webvtt(cues));

  CHECK_FALSE(write_subtitle_files(cues, folder / "y.srt", folder / "missing" / "y.vtt", error));
  CHECK(error.find("y.vtt") != std::string::npos);
  CHECK_FALSE(fs::exists(folder / "y.srt"));
  int files = 0;  // x.srt and x.vtt, no temporary left behind
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder)) ++files;
  CHECK(files == 2);
  fs::remove_all(folder);
}

TEST_CASE("every caption of every shipped lesson is exactly one cue of a whole recording, in both languages") {
  const std::vector<fs::path> files = list_lesson_files(kLessonFolder);
  REQUIRE(files.size() >= 6);
  for (const fs::path& file : files) {
    const Lesson lesson = load_lesson_file(file);
    for (const Language language : {Language::en, Language::zh})
      for (const int fps : {24, 30, 60}) {
        INFO(file.filename().string() << (language == Language::zh ? " zh " : " en ") << fps << " fps");
        SubtitleWindow window;
        window.fps = fps;
        const std::vector<SubtitleCue> cues = subtitle_cues(lesson, language, window);
        std::vector<std::string> captions;
        for (const LessonScene& scene : lesson.scenes)
          for (const LessonStep& step : scene.steps) captions.push_back(step.caption.in(language));
        REQUIRE(cues.size() == captions.size());
        CHECK(cues.front().start == 0.0);
        CHECK(cues.back().end == doctest::Approx(lesson_frame_count(lesson, fps) / static_cast<double>(fps)));
        for (std::size_t i = 0; i < cues.size(); ++i) {
          CHECK(cues[i].text == captions[i]);
          CHECK(valid_utf8(cues[i].text));
          CHECK(cues[i].end > cues[i].start);
          if (i > 0) CHECK(cues[i].start == cues[i - 1].end);  // increasing, never overlapping
          // The frame at the cue's start shows that caption.
          const double shown = std::llround(cues[i].start * fps) / static_cast<double>(fps);
          CHECK(lesson_frame(lesson, shown, language).caption == captions[i]);
        }
      }
  }
}

TEST_CASE("one frame count for the recorder, the lesson and the subtitles") {
  CHECK(video_frame_count(10.0, 30) == 300);  // not 301 from rounding
  CHECK(video_frame_count(0.5, 4) == 2);
  CHECK(video_frame_count(0.51, 4) == 3);
  CHECK(video_frame_count(0.0, 60) == 1);  // a recording always holds a frame
  CHECK(video_frame_count(-1.0, 60) == 1);
  const Lesson lesson = clock_lesson();
  CHECK(lesson_frame_count(lesson, 7) == video_frame_count(lesson.duration(), 7));
  SubtitleWindow window;
  window.fps = 7;
  window.from = 3.3;
  CHECK(subtitle_frame_count(lesson, window) == video_frame_count(lesson.duration() - 3.3, 7));
  window.seconds = 2.2;
  CHECK(subtitle_frame_count(lesson, window) == video_frame_count(2.2, 7));
}

TEST_CASE("a video that opens on a title card: the lesson window after it, or none when the video ends inside it") {
  // 2.5 s of card, the whole video: the lesson from its start, cues 2.5 s later.
  std::optional<SubtitleWindow> window = lesson_window_in_video(4, 0.0, std::nullopt, 2.5);
  REQUIRE(window);
  CHECK(window->from == 0.0);
  CHECK(window->video_offset == 2.5);
  CHECK_FALSE(window->seconds);
  // From 1 s, 6 s of video: 1.5 s of card left, then 4.5 s of the lesson.
  window = lesson_window_in_video(4, 1.0, 6.0, 2.5);
  REQUIRE(window);
  CHECK(window->from == 0.0);
  CHECK(window->video_offset == doctest::Approx(1.5));
  CHECK(*window->seconds == doctest::Approx(4.5));
  // From inside the lesson: no card left, the lesson clock 2.5 s behind the video's.
  window = lesson_window_in_video(4, 5.0, 2.0, 2.5);
  REQUIRE(window);
  CHECK(window->from == doctest::Approx(2.5));
  CHECK(window->video_offset == 0.0);
  CHECK(*window->seconds == doctest::Approx(2.0));
  // Ends inside the card: no window, so no cue starts after the video ended.
  CHECK_FALSE(lesson_window_in_video(4, 0.0, 2.0, 2.5));
  CHECK_FALSE(lesson_window_in_video(4, 1.0, 1.5, 2.5));  // ends exactly where the lesson starts
  // Ends a hair after the card, but its last frame (0.001 + 9/4 s) still shows the card.
  CHECK_FALSE(lesson_window_in_video(4, 0.001, 2.5, 2.5));
  // Its last frame is the lesson's first.
  CHECK(lesson_window_in_video(4, 0.0, 2.6, 2.5));
  // An end card at lesson time 10: the window stops there, whether the video runs on or not.
  window = lesson_window_in_video(4, 0.0, std::nullopt, 2.5, 10.0);
  REQUIRE(window);
  CHECK(*window->seconds == doctest::Approx(10.0));
  window = lesson_window_in_video(4, 9.5, 20.0, 2.5, 10.0);
  REQUIRE(window);
  CHECK(window->from == doctest::Approx(7.0));
  CHECK(*window->seconds == doctest::Approx(3.0));
  window = lesson_window_in_video(4, 9.5, 1.0, 2.5, 10.0);  // ends before the card: as without one
  REQUIRE(window);
  CHECK(*window->seconds == doctest::Approx(1.0));
  CHECK_FALSE(lesson_window_in_video(4, 12.5, 2.0, 2.5, 10.0));  // starts on the end card
  // No card: the window is the video's.
  window = lesson_window_in_video(4, 3.0, 1.0, 0.0);
  REQUIRE(window);
  CHECK(window->from == 3.0);
  CHECK(*window->seconds == 1.0);
}
