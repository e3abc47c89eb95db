// `ringviz record --dump-layout DIR/`: one layout per recorded frame, named as the PNG frames
// are, each saying the view, the lesson's scene and step (null on the stage's cards) and the
// texts drawn; nothing is left under DIR when the recording fails.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/gui/stage/stage_timeline.h"
#include "core/model/text.h"
#include "core/teaching/lesson.h"
#include "render_harness.h"

using namespace ringviz::gui_test;
namespace fs = std::filesystem;

namespace {

const fs::path kLesson = fs::path(RINGVIZ_SOURCE_DIR) / "assets/lessons/05-allreduce-traffic.json";

fs::path layouts_folder(const std::string& name) {
  const fs::path folder = scratch_dir() / ("layouts-" + name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> names;
  if (!fs::is_directory(folder)) return names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string stem_of(const std::string& name) { return fs::path(name).stem().string(); }

nlohmann::json load_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("record --dump-layout DIR/ without --out writes the same layouts as a recording, and no video") {
  const fs::path folder = layouts_folder("alone");
  const std::vector<std::string> common = {"record", "--lesson", kLesson.string(), "--size", "1280x720", "--fps", "1",
                                           "--from", "20", "--seconds", "6", "--lang", "zh"};
  std::vector<std::string> alone = common, with_video = common;
  alone.insert(alone.end(), {"--dump-layout", (folder / "alone").string() + "/"});
  with_video.insert(with_video.end(), {"--dump-layout", (folder / "with-video").string() + "/", "--out",
                                       (folder / "frames").string() + "/"});
  const Run layouts_only = run_ringviz(alone);
  INFO("ringviz printed: " << layouts_only.output);
  REQUIRE(layouts_only.exit_code == 0);
  REQUIRE(run_ringviz(with_video).exit_code == 0);
  // Only the layouts' folder, and no subtitles beside a video that was never written.
  CHECK(names_in(folder) == std::vector<std::string>{"alone", "frames", "frames.srt", "frames.vtt", "with-video"});
  const std::vector<std::string> names = names_in(folder / "alone");
  REQUIRE(names.size() == 6);
  CHECK(names == names_in(folder / "with-video"));
  for (const std::string& name : names) {
    CAPTURE(name);
    CHECK(load_json(folder / "alone" / name) == load_json(folder / "with-video" / name));
  }
  // Without --out and without a layouts folder there is nothing to write: refused as before.
  const Run nothing = run_ringviz({"record", "--lesson", kLesson.string(), "--dump-layout", (folder / "x.json").string()});
  CHECK(nothing.exit_code == 2);
  CHECK(nothing.output.find("--out: missing") != std::string::npos);
}

TEST_CASE("record --dump-layout DIR/ writes one layout per frame, named as the PNG frames, with the lesson's scene and step") {
  const fs::path folder = layouts_folder("stage");
  // Video seconds 1 to 4 at 1 fps: two frames of the title card, then the lesson's first seconds.
  const double from = 1.0;
  const Run run = run_ringviz({"record", "--lesson", kLesson.string(), "--out", (folder / "frames").string() + "/",
                               "--size", "1280x720", "--fps", "1", "--from", "1", "--seconds", "4",
                               "--dump-layout", (folder / "layouts").string() + "/"});
  INFO("ringviz printed: " << run.output);
  REQUIRE(run.exit_code == 0);
  const std::vector<std::string> pngs = names_in(folder / "frames");
  const std::vector<std::string> layouts = names_in(folder / "layouts");
  REQUIRE(layouts.size() == 4);
  REQUIRE(pngs.size() == layouts.size());
  CHECK(layouts.front() == "frame-000000.json");
  const ringviz::Lesson lesson = ringviz::load_lesson_file(kLesson);
  for (std::size_t k = 0; k < layouts.size(); ++k) {
    CAPTURE(layouts[k]);
    CHECK(stem_of(layouts[k]) == stem_of(pngs[k]));
    const nlohmann::json layout = load_json(folder / "layouts" / layouts[k]);
    CHECK(layout["view"] == "ring");
    CHECK_FALSE(layout["texts"].empty());
    const double video_seconds = from + static_cast<double>(k);
    if (video_seconds < ringviz::gui::kStageTitleSeconds) {
      CHECK(layout["stage"]["part"] == "title");
      CHECK(layout["lesson"].is_null());
    } else {
      CHECK(layout["stage"]["part"] == "lesson");
      const ringviz::LessonFrame expected =
          ringviz::lesson_frame(lesson, video_seconds - ringviz::gui::kStageTitleSeconds, ringviz::Language::en);
      CHECK(layout["lesson"]["name"] == "05-allreduce-traffic");
      CHECK(layout["lesson"]["scene"] == expected.scene_index);
      CHECK(layout["lesson"]["step"] == expected.step_index);
      // The caption on screen is among the texts, as the caption font drew it (its first word).
      const std::string caption(expected.caption);
      const std::string first_word = caption.substr(0, caption.find(' '));
      const bool drawn = std::any_of(layout["texts"].begin(), layout["texts"].end(), [&](const nlohmann::json& t) {
        return t["text"].get<std::string>().rfind(first_word, 0) == 0 &&
               t["pixels"].get<double>() == layout["stage"]["caption_pixels"].get<double>();
      });
      CHECK_MESSAGE(drawn, "no text in the caption font starts with '" << first_word << "'");
    }
  }
  // Nothing hidden (a temporary folder) is left beside the outputs.
  for (const std::string& name : names_in(folder)) CHECK(name[0] != '.');
}

TEST_CASE("record --dump-layout DIR/ beside a transparent sequence names the layouts as its frames") {
  const fs::path folder = layouts_folder("transparent");
  const Run run = run_ringviz({"record", "--lesson", kLesson.string(), "--out", (folder / "frames").string() + "/",
                               "--size", "1280x720", "--fps", "1", "--seconds", "2", "--background", "transparent",
                               "--dump-layout", (folder / "layouts").string() + "/"});
  INFO("ringviz printed: " << run.output);
  REQUIRE(run.exit_code == 0);
  CHECK(names_in(folder / "layouts") ==
        std::vector<std::string>{"05-allreduce-traffic_00001.json", "05-allreduce-traffic_00002.json"});
  CHECK(names_in(folder / "frames") ==
        std::vector<std::string>{"05-allreduce-traffic_00001.png", "05-allreduce-traffic_00002.png"});
}

TEST_CASE("record --dump-layout into an existing folder of layouts replaces them, a failed recording leaves them") {
  const fs::path folder = layouts_folder("replace");
  const fs::path layouts = folder / "layouts";
  fs::create_directories(layouts);
  for (const char* old : {"frame-000000.json", "frame-000001.json", "frame-000002.json"})
    std::ofstream(layouts / old) << "{}";
  // An existing folder is a folder without the trailing '/'.
  Run run = run_ringviz({"record", "--out", (folder / "frames").string() + "/", "--size", "320x240", "--fps", "2",
                         "--seconds", "1", "--layout", "app", "--dump-layout", layouts.string()});
  INFO("ringviz printed: " << run.output);
  REQUIRE(run.exit_code == 0);
  CHECK(names_in(layouts) == std::vector<std::string>{"frame-000000.json", "frame-000001.json"});
  CHECK(load_json(layouts / "frame-000001.json")["lesson"].is_null());  // no lesson
  // ffmpeg fails: the earlier layouts stay, nothing hidden is left beside them.
  const fs::path fake = folder / "ffmpeg";
  std::ofstream(fake) << "#!/bin/sh\ncat > /dev/null\nexit 1\n";
  fs::permissions(fake, fs::perms::owner_all);
  run = run_ringviz({"record", "--out", (folder / "clip.mp4").string(), "--size", "320x240", "--fps", "2",
                     "--seconds", "1", "--layout", "app", "--dump-layout", layouts.string() + "/"},
                    {{"RINGVIZ_FFMPEG", fake.string()}});
  CHECK(run.exit_code == 1);
  CHECK(names_in(layouts) == std::vector<std::string>{"frame-000000.json", "frame-000001.json"});
  CHECK(names_in(folder) == std::vector<std::string>{"ffmpeg", "frames", "layouts"});
}

namespace {

bool is_digit(char32_t code) { return code >= '0' && code <= '9'; }

// A letter or an ideograph: what a number's unit or label is made of.
bool is_word(char32_t code) {
  return (code >= 'A' && code <= 'Z') || (code >= 'a' && code <= 'z') || (code >= 0x3040 && code <= 0x9FFF);
}

char32_t first_code_point(const std::string& text) {
  std::size_t at = 0;
  return text.empty() ? 0 : ringviz::next_code_point(text, at);
}

char32_t last_code_point(const std::string& text) {
  std::size_t at = text.size();
  while (at > 0 && (static_cast<unsigned char>(text[at - 1]) & 0xC0) == 0x80) --at;  // continuation bytes
  if (at == 0) return 0;
  --at;
  return ringviz::next_code_point(text, at);
}

}  // namespace

TEST_CASE("lesson 08's Memory header never ends a line at a label before its number (\"micro-batch\" / \"1\"), en and zh") {
  // Video second 20 at 1280x720: the first scene's third step, the header wrapped onto two lines.
  for (const char* language : {"zh", "en"}) {
    CAPTURE(language);
    const fs::path folder = layouts_folder(std::string("header-") + language);
    const Run run = run_ringviz({"record", "--lesson", "08-112gb-in-80gb", "--lang", language, "--out",
                                 (folder / "frames").string() + "/", "--size", "1280x720", "--fps", "1", "--from", "20",
                                 "--seconds", "1", "--dump-layout", (folder / "layout.json").string()});
    INFO("ringviz printed: " << run.output);
    REQUIRE(run.exit_code == 0);
    const nlohmann::json layout = load_json(folder / "layout.json");
    REQUIRE(layout["view"] == "memory");
    const nlohmann::json& texts = layout["texts"];
    int line_pairs = 0;
    for (std::size_t i = 0; i + 1 < texts.size(); ++i) {
      const nlohmann::json& line = texts[i];
      const nlohmann::json& next = texts[i + 1];
      // The next line of one paragraph: same font size, same left edge (give or take the ink of
      // its first glyph), one line lower; a paragraph after it starts 1.2 lines lower.
      const double step = next["y"].get<double>() - line["y"].get<double>();
      const double pixels = line["pixels"].get<double>();
      if (next["pixels"].get<double>() != pixels || std::abs(next["x"].get<double>() - line["x"].get<double>()) > 3 ||
          step < pixels * 0.9 || step > pixels * 1.1)
        continue;
      ++line_pairs;
      const std::string ends = line["text"].get<std::string>(), starts = next["text"].get<std::string>();
      CAPTURE(ends);
      CAPTURE(starts);
      const char32_t end = last_code_point(ends), start = first_code_point(starts);
      CHECK_FALSE((is_word(end) && is_digit(start)));
      CHECK_FALSE((is_digit(end) && is_word(start)));
    }
    CHECK(line_pairs >= 1);  // the header (at least) wraps at this width
  }
}
