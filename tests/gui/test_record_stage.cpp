// `ringviz record`'s stage (the default layout): at 1280x720 the ring covers most of the
// frame and the caption is at least 28 pixels high, the video opens on a title card and
// closes on an end card, 4K works, a transparent background gives PNGs with alpha, and
// --layout app still gives the desktop window. One or two frames each, at 1 fps.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <stb_image.h>

#include "app/gui/stage/stage_timeline.h"
#include "core/teaching/lesson.h"
#include "render_harness.h"

using namespace ringviz::gui_test;
namespace fs = std::filesystem;

namespace {

const fs::path kLesson = fs::path(RINGVIZ_SOURCE_DIR) / "assets/lessons/05-allreduce-traffic.json";

fs::path stage_folder(const std::string& name) {
  const fs::path folder = scratch_dir() / ("stage-" + name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

struct Rgba {
  int width = 0, height = 0;
  std::vector<unsigned char> px;  // 4 bytes per pixel, top row first
  const unsigned char* at(int x, int y) const {
    return px.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4;
  }
};

Rgba load_rgba(const fs::path& path) {
  Rgba image;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &image.width, &image.height, &channels, 4);
  REQUIRE_MESSAGE(data != nullptr, "cannot load " << path);
  image.px.assign(data, data + static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4);
  stbi_image_free(data);
  return image;
}

std::vector<fs::path> pngs_in(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// One frame at video time `seconds`, with its layout: the PNG and the JSON.
struct StageFrame {
  Rgba image;
  nlohmann::json layout;
  fs::path png;
};
StageFrame record_one(const std::string& name, double seconds, std::vector<std::string> extra = {},
                      const std::string& size = "1280x720") {
  const fs::path folder = stage_folder(name);
  std::vector<std::string> args = {"record", "--lesson", kLesson.string(), "--out", (folder / "frames").string() + "/",
                                   "--size", size, "--fps", "1", "--seconds", "1", "--from", std::to_string(seconds),
                                   "--dump-layout", (folder / "layout.json").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const Run run = run_ringviz(args);
  INFO("ringviz printed: " << run.output);
  REQUIRE(run.exit_code == 0);
  const std::vector<fs::path> frames = pngs_in(folder / "frames");
  REQUIRE(frames.size() == 1);
  std::ifstream in(folder / "layout.json");
  return {load_rgba(frames[0]), nlohmann::json::parse(in), frames[0]};
}

double area(const nlohmann::json& r) { return r["w"].get<double>() * r["h"].get<double>(); }

// The height in pixels of the tallest run of rows holding caption-white pixels, inside the
// caption band below its heading: the ink of one line of caption text, ascenders to descenders.
int caption_ink_height(const Rgba& image, const nlohmann::json& band, double heading_bottom) {
  const int x0 = static_cast<int>(band["x"].get<double>());
  const int x1 = x0 + static_cast<int>(band["w"].get<double>());
  const int y1 = std::min(image.height, static_cast<int>(band["y"].get<double>() + band["h"].get<double>()));
  int best = 0, run = 0;
  for (int y = static_cast<int>(heading_bottom); y < y1; ++y) {
    bool white = false;
    for (int x = x0; x < x1 && !white; ++x) {
      const unsigned char* p = image.at(x, y);
      white = p[0] > 240 && p[1] > 240 && p[2] > 240;
    }
    run = white ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

}  // namespace

TEST_CASE("a stage frame at 1280x720: the ring covers most of the frame and the caption is at least 28 px high") {
  // Lesson time 1 s: scene 1, the 4 GPUs at rest under the first caption.
  const StageFrame frame = record_one("720p", ringviz::gui::kStageTitleSeconds + 1.0);
  const nlohmann::json& stage = frame.layout["stage"];
  CHECK(stage["part"] == "lesson");
  CHECK(frame.image.width == 1280);
  CHECK(frame.image.height == 720);
  // Nothing of the desktop window: no setup, transfers or traffic panels.
  CHECK(frame.layout["panels"]["setup"]["w"].get<double>() == 0);
  CHECK(frame.layout["panels"]["round_table"]["w"].get<double>() == 0);
  CHECK(frame.layout["panels"]["traffic"]["w"].get<double>() == 0);
  const double frame_area = 1280.0 * 720.0;
  INFO("ring bounds " << stage["ring_bounds"].dump());
  // The view takes the whole width and most of the height (the desktop layout gives it 41% of
  // a 720p frame); 4 GPUs' boxes span most of its width and nearly all of its height (the ring
  // keeps room for its arrows), at twice the desktop layout's text size.
  CHECK(area(stage["view"]) >= frame_area * 0.55);
  CHECK(stage["ring_bounds"]["w"].get<double>() >= 1280 * 0.6);
  CHECK(stage["ring_bounds"]["h"].get<double>() >= stage["view"]["h"].get<double>() * 0.8);
  CHECK(area(stage["ring_bounds"]) >= frame_area * 0.3);
  CHECK(stage["ui_scale"].get<double>() == doctest::Approx(2.0));
  CHECK(stage["caption_pixels"].get<double>() >= 28);
  CHECK(stage["header_pixels"].get<double>() >= 24);
  CHECK(stage["header_formula"].get<std::string>().find("2(N-1)/N") != std::string::npos);
  // Measured on the pixels too: a caption line's white ink from its tallest letter to its
  // lowest descender.
  const nlohmann::json& band = frame.layout["lesson"]["caption_band"];
  const double heading_bottom = band["y"].get<double>() + stage["caption_pixels"].get<double>() * 0.45 +
                                frame.layout["stage"]["header_pixels"].get<double>() * 1.3;
  const int ink = caption_ink_height(frame.image, band, heading_bottom);
  MESSAGE("caption ink height at 1280x720: " << ink << " px (font " << stage["caption_pixels"] << " px)");
  CHECK(ink >= 28);
}

TEST_CASE("a stage recording opens on the lesson's title card and closes on an end card") {
  const StageFrame title = record_one("title", 0.0);
  CHECK(title.layout["stage"]["part"] == "title");
  const ringviz::Lesson lesson = ringviz::load_lesson_file(kLesson);
  const StageFrame end = record_one("end", ringviz::gui::stage_video_seconds(lesson) - 0.5);
  CHECK(end.layout["stage"]["part"] == "end");
  // Both cards cover the frame: no caption band's black at the bottom, and text in the middle.
  for (const StageFrame* card : {&title, &end}) {
    const Rgba& image = card->image;
    int bright = 0;
    for (int y = image.height / 4; y < image.height * 3 / 4; y += 2)
      for (int x = 0; x < image.width; x += 2)
        if (image.at(x, y)[0] > 200 && image.at(x, y)[1] > 200) ++bright;
    CHECK(bright > 200);
    const unsigned char* bottom = image.at(image.width / 2, image.height - 4);
    CHECK_FALSE((bottom[0] < 20 && bottom[1] < 20 && bottom[2] < 25));
  }
}

TEST_CASE("a transparent stage is PNG frames with alpha: background 0, the ring's boxes opaque") {
  const StageFrame frame = record_one("transparent", ringviz::gui::kStageTitleSeconds + 1.0,
                                      {"--background", "transparent"});
  CHECK(frame.png.filename().string() == "05-allreduce-traffic_00001.png");
  const Rgba& image = frame.image;
  CHECK(image.at(2, 2)[3] == 0);                        // the header's corner
  const nlohmann::json& view = frame.layout["stage"]["view"];
  CHECK(image.at(3, static_cast<int>(view["y"].get<double>() + 10))[3] == 0);  // the view's background
  int opaque = 0;
  for (const auto& gpu : frame.layout["gpus"]) {
    const auto& box = gpu["box"];
    const int cx = static_cast<int>(box["x"].get<double>() + 3), cy = static_cast<int>(box["y"].get<double>() + 3);
    CAPTURE(gpu["rank"].get<int>());
    CHECK(image.at(cx, cy)[3] == 255);
    ++opaque;
  }
  CHECK(opaque == 4);
}

TEST_CASE("a 4K stage frame is 3840x2160 with text three times the 720p size") {
  const StageFrame frame = record_one("4k", ringviz::gui::kStageTitleSeconds + 1.0, {}, "3840x2160");
  CHECK(frame.image.width == 3840);
  CHECK(frame.image.height == 2160);
  CHECK(frame.layout["stage"]["caption_pixels"].get<double>() >= 3 * 28);
  CHECK(area(frame.layout["stage"]["ring_bounds"]) >= 3840.0 * 2160.0 * 0.3);
}

TEST_CASE("--layout app records the desktop window as before") {
  const StageFrame frame = record_one("app", 1.0, {"--layout", "app"});
  CHECK_FALSE(frame.layout.contains("stage"));
  CHECK(frame.layout["panels"]["setup"]["w"].get<double>() > 0);
  CHECK(frame.layout["panels"]["round_table"]["w"].get<double>() > 0);
  CHECK(frame.layout["lesson"]["time"].get<double>() == doctest::Approx(1.0));
}

TEST_CASE("stage flags that do not go together exit 2 with one line saying what to do") {
  const fs::path folder = stage_folder("flags");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--background", "transparent", "--out", (folder / "v.mp4").string()},
       "ringviz: --background transparent: " + (folder / "v.mp4").string() + " is a video"},
      {{"--background", "transparent", "--layout", "app", "--out", (folder / "f").string() + "/"},
       "ringviz: --background transparent: only with --layout stage"},
      {{"--background", "purple", "--out", (folder / "f").string() + "/"}, "ringviz: --background: 'purple'"},
      {{"--layout", "desk", "--out", (folder / "f").string() + "/"}, "ringviz: --layout"},
  };
  for (const auto& [args, expected] : cases) {
    std::vector<std::string> full = {"record", "--lesson", kLesson.string()};
    full.insert(full.end(), args.begin(), args.end());
    const Run run = run_ringviz(full);
    CAPTURE(run.output);
    CHECK(run.exit_code == 2);
    CHECK(run.output.find(expected) != std::string::npos);
    CHECK(std::count(run.output.begin(), run.output.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(folder / "v.mp4"));
  }
}

TEST_CASE("a stage recording's subtitles start after the title card") {
  const fs::path folder = stage_folder("subtitles");
  // 6 s from the start: the title card (2.5 s), then 3.5 s of the lesson's first caption.
  const Run run = run_ringviz({"record", "--lesson", kLesson.string(), "--out", (folder / "clip").string() + "/",
                               "--size", "320x180", "--fps", "2", "--seconds", "6"});
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  std::ifstream in(folder / "clip.srt");
  const std::string srt{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  CHECK(srt.rfind("1\n00:00:02,500 --> 00:00:06,000\n", 0) == 0);
  CHECK(srt.find("\n2\n") == std::string::npos);  // one caption on screen in that window
}

TEST_CASE("a stage recording that ends inside the title card has subtitle files without cues") {
  const fs::path folder = stage_folder("subtitles-card-only");
  // 2 s from the start, all of it title card (2.5 s): no caption is ever on screen.
  const Run run = run_ringviz({"record", "--lesson", kLesson.string(), "--out", (folder / "clip").string() + "/",
                               "--size", "320x180", "--fps", "2", "--seconds", "2"});
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  std::ifstream srt_in(folder / "clip.srt");
  const std::string srt{std::istreambuf_iterator<char>(srt_in), std::istreambuf_iterator<char>()};
  std::ifstream vtt_in(folder / "clip.vtt");
  const std::string vtt{std::istreambuf_iterator<char>(vtt_in), std::istreambuf_iterator<char>()};
  CHECK(fs::exists(folder / "clip.srt"));
  CHECK(srt.empty());
  CHECK(vtt == "WEBVTT\n");
}

TEST_CASE("a stage recording's last cue ends where the end card covers the lesson") {
  const fs::path folder = stage_folder("subtitles-end-card");
  // The lesson's last second, then 2 s of the end card (which hides the caption).
  const double from = ringviz::gui::kStageTitleSeconds + ringviz::load_lesson_file(kLesson).duration() - 1;
  const Run run = run_ringviz({"record", "--lesson", kLesson.string(), "--out", (folder / "clip").string() + "/",
                               "--size", "320x180", "--fps", "2", "--from", std::to_string(from), "--seconds", "3"});
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  std::ifstream in(folder / "clip.srt");
  const std::string srt{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  INFO(srt);
  CHECK(srt.rfind("1\n00:00:00,000 --> ", 0) == 0);
  CHECK(srt.find(" --> 00:00:01,000\n") != std::string::npos);  // not 00:00:03,000, the video's end
  CHECK(srt.find("00:00:03,000") == std::string::npos);
}
