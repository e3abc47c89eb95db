// `ringviz record --lesson`: the video comes with NAME.srt and NAME.vtt beside it, one cue per
// caption the recorded window shows, times increasing and never overlapping, in the
// recording's language; a recording that fails leaves no subtitles.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "core/teaching/lesson.h"
#include "render_harness.h"

using namespace ringviz::gui_test;
namespace fs = std::filesystem;

namespace {

struct ParsedCue {
  double start = 0, end = 0;
  std::string text;
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fs::path fresh_folder(const std::string& name) {
  const fs::path folder = scratch_dir() / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

// "HH:MM:SS,mmm" or "HH:MM:SS.mmm" in seconds; -1 when malformed.
double parse_time(const std::string& text, char separator) {
  int h = 0, m = 0, s = 0, ms = 0;
  char a = 0, b = 0, c = 0;
  std::istringstream in(text);
  if (!(in >> h >> a >> m >> b >> s >> c >> ms) || a != ':' || b != ':' || c != separator || m > 59 || s > 59 ||
      text.size() != 12)
    return -1;
  return h * 3600.0 + m * 60.0 + s + ms / 1000.0;
}

// Blocks separated by blank lines; in each, an optional number (SubRip), the timing line, text.
std::vector<ParsedCue> parse_cues(const std::string& file, char separator, bool numbered) {
  std::vector<ParsedCue> cues;
  std::istringstream in(file);
  std::vector<std::string> block;
  const auto finish = [&] {
    if (block.empty()) return;
    std::size_t line = 0;
    if (numbered) {
      CHECK(block[0] == std::to_string(cues.size() + 1));
      ++line;
    }
    REQUIRE(block.size() > line + 1);  // a timing line and some text
    const std::string& timing = block[line];
    REQUIRE(timing.size() == 29);
    CHECK(timing.substr(12, 5) == " --> ");
    ParsedCue cue{parse_time(timing.substr(0, 12), separator), parse_time(timing.substr(17), separator), {}};
    CHECK(cue.start >= 0);
    CHECK(cue.end >= 0);
    for (std::size_t i = line + 1; i < block.size(); ++i) cue.text += (i > line + 1 ? "\n" : "") + block[i];
    cues.push_back(cue);
    block.clear();
  };
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) finish();
    else block.push_back(line);
  }
  finish();
  return cues;
}

// The captions a recording of `seconds` from `from` at `fps` shows, in order: the lesson clock
// asked frame by frame, as the recorder asks it.
std::vector<std::string> captions_on_screen(const ringviz::Lesson& lesson, double from, double seconds, int fps,
                                            ringviz::Language language) {
  std::vector<std::string> captions;
  std::pair<int, int> previous{-1, -1};
  const long long frames = static_cast<long long>(std::ceil(seconds * fps - 1e-9));
  for (long long k = 0; k < frames; ++k) {
    const ringviz::LessonFrame frame = ringviz::lesson_frame(lesson, from + static_cast<double>(k) / fps, language);
    const std::pair<int, int> step{frame.scene_index, frame.step_index};
    if (step != previous) captions.emplace_back(frame.caption);
    previous = step;
  }
  return captions;
}

// Both files parse, agree with each other, and hold `expected` in order, back to back within
// [0, seconds].
void check_subtitles(const fs::path& srt, const fs::path& vtt, const std::vector<std::string>& expected,
                     double seconds) {
  REQUIRE(fs::exists(srt));
  REQUIRE(fs::exists(vtt));
  const std::string vtt_text = slurp(vtt);
  CHECK(vtt_text.rfind("WEBVTT\n\n", 0) == 0);
  const std::vector<ParsedCue> srt_cues = parse_cues(slurp(srt), ',', true);
  const std::vector<ParsedCue> vtt_cues = parse_cues(vtt_text.substr(8), '.', false);
  REQUIRE(srt_cues.size() == expected.size());
  REQUIRE(vtt_cues.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(srt_cues[i].text == expected[i]);
    CHECK(srt_cues[i].start == vtt_cues[i].start);
    CHECK(srt_cues[i].end == vtt_cues[i].end);
    CHECK(srt_cues[i].end > srt_cues[i].start);
    if (i > 0) CHECK(srt_cues[i].start >= srt_cues[i - 1].end);  // increasing, no overlap
  }
  CHECK(srt_cues.front().start == 0.0);
  CHECK(srt_cues.back().end == doctest::Approx(seconds).epsilon(0.001));
}

bool have_program(const char* name) {
  return std::system((std::string("command -v ") + name + " > /dev/null 2>&1").c_str()) == 0;
}

const fs::path kLessons = fs::path(RINGVIZ_SOURCE_DIR) / "assets/lessons";

}  // namespace

// The cases above record in the desktop window's layout (--layout app), whose video starts with
// the lesson; the stage's title card moves every cue later (test_record_stage.cpp).

TEST_CASE("a lesson recorded to PNG frames has its subtitles beside the folder, for the window recorded") {
  const fs::path file = kLessons / "04-ring-reducescatter.json";
  const ringviz::Lesson lesson = ringviz::load_lesson_file(file);
  const fs::path folder = fresh_folder("subtitles-png");
  // From 5 s for 12 s: starts inside a caption and crosses a few boundaries.
  const Run run = run_ringviz({"record", "--lesson", file.string(), "--out", (folder / "clip").string() + "/",
                               "--size", "320x180", "--fps", "4", "--from", "5", "--seconds", "12", "--layout", "app"});
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const std::vector<std::string> expected = captions_on_screen(lesson, 5, 12, 4, ringviz::Language::en);
  REQUIRE(expected.size() >= 2);
  check_subtitles(folder / "clip.srt", folder / "clip.vtt", expected, 12);
  // The frames folder holds frames only.
  for (const auto& entry : fs::directory_iterator(folder / "clip"))
    CHECK(entry.path().filename().string().rfind("frame-", 0) == 0);

  // A folder where the subtitles should go is refused before any frame is drawn.
  fs::create_directories(folder / "taken.vtt");
  const Run refused = run_ringviz({"record", "--lesson", file.string(), "--out", (folder / "taken").string() + "/",
                                   "--size", "320x180", "--fps", "4", "--seconds", "1"});
  CHECK(refused.exit_code == 2);
  CHECK(refused.output.find("taken.vtt', where the lesson's subtitles go, is a folder") != std::string::npos);
  CHECK_FALSE(fs::exists(folder / "taken"));
  CHECK_FALSE(fs::exists(folder / "taken.srt"));
}

TEST_CASE("an MP4 of a whole lesson gets NAME.srt and NAME.vtt, one cue per caption, a failed one gets none") {
  if (!have_program("ffmpeg") || !have_program("ffprobe")) {
    MESSAGE("ffmpeg/ffprobe not installed: skipped");
    return;
  }
  const fs::path file = kLessons / "02-three-primitives.json";
  const ringviz::Lesson lesson = ringviz::load_lesson_file(file);
  const fs::path folder = fresh_folder("subtitles-mp4");
  const Run run = run_ringviz({"record", "--lesson", file.string(), "--out", (folder / "primitives.mp4").string(),
                               "--size", "320x180", "--fps", "2", "--layout", "app"});
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  std::size_t captions = 0;
  for (const ringviz::LessonScene& scene : lesson.scenes) captions += scene.steps.size();
  const std::vector<std::string> expected =
      captions_on_screen(lesson, 0, lesson.duration(), 2, ringviz::Language::en);
  CHECK(expected.size() == captions);
  check_subtitles(folder / "primitives.srt", folder / "primitives.vtt", expected,
                  static_cast<double>(ringviz::lesson_frame_count(lesson, 2)) / 2);

  // No video, no subtitles: an encoder that is not there fails the recording first.
  const Run failed = run_ringviz({"record", "--lesson", file.string(), "--out", (folder / "failed.mp4").string(),
                                  "--size", "320x180", "--fps", "2", "--seconds", "1"},
                                 {{"PATH", "/nonexistent"}});
  CHECK(failed.exit_code == 1);
  CHECK_FALSE(fs::exists(folder / "failed.srt"));
  CHECK_FALSE(fs::exists(folder / "failed.vtt"));
}

TEST_CASE("a Chinese recording's subtitles are the Chinese captions, UTF-8 intact") {
  if (access("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", R_OK) != 0) {
    MESSAGE("fonts-wqy-microhei is not installed: skipped");
    return;
  }
  const fs::path file = kLessons / "03-ring-allgather.json";
  const ringviz::Lesson lesson = ringviz::load_lesson_file(file);
  const fs::path folder = fresh_folder("subtitles-zh");
  const Run run = run_ringviz({"record", "--lesson", file.string(), "--out", (folder / "zh").string() + "/", "--size",
                               "320x180", "--fps", "2", "--seconds", "10", "--lang", "zh", "--layout", "app"});
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const std::vector<std::string> expected = captions_on_screen(lesson, 0, 10, 2, ringviz::Language::zh);
  check_subtitles(folder / "zh.srt", folder / "zh.vtt", expected, 10);
  CHECK(slurp(folder / "zh.srt").find(expected.front()) != std::string::npos);
  // The summary lines are in the recording's language too: the video's, then the subtitles'.
  CHECK(run.output.find("ringviz: 已写入 " + (folder / "zh").string() + "/（PNG 帧，20 帧") != std::string::npos);
  CHECK(run.output.find("zh.vtt（字幕）\n") != std::string::npos);
  CHECK(run.output.find("(subtitles)") == std::string::npos);
}
