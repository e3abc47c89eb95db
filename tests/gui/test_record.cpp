// `ringviz record`: lessons render headless (first and last frame checked pixel by pixel at
// the layout's positions), recordings have the frame count, size and format asked for, the
// same input gives the same PNG bytes, and failures leave no file under the final name.
#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <stb_image.h>

#include "core/teaching/lesson.h"
#include "render_harness.h"

using namespace ringviz::gui_test;
namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<fs::path> files_in(const fs::path& folder) {
  std::vector<fs::path> files;
  if (!fs::is_directory(folder)) return files;
  for (const auto& entry : fs::directory_iterator(folder)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// A fresh folder for one test's outputs.
fs::path fresh(const std::string& name) {
  const fs::path folder = scratch_dir() / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

// What ffprobe says about the first video stream: "codec,pix_fmt,width,height,frames".
std::string probe(const fs::path& video) {
  const Run run = [&] {
    // ffprobe is not ringviz: run it through the shell with its output captured in a file.
    const fs::path log = video.string() + ".probe";
    const std::string command = "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                "stream=codec_name,pix_fmt,width,height,nb_read_frames -of csv=p=0 '" +
                                video.string() + "' > '" + log.string() + "' 2>&1";
    Run r;
    r.exit_code = std::system(command.c_str());
    r.output = read_file(log);
    return r;
  }();
  std::string out = run.output;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

bool have_program(const char* name) {
  return std::system((std::string("command -v ") + name + " > /dev/null 2>&1").c_str()) == 0;
}

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  Rgb at(double x, double y) const {
    const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3;
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
  }
};

Image load_png(const fs::path& path) {
  Image image;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &image.width, &image.height, &channels, 3);
  REQUIRE_MESSAGE(data != nullptr, "cannot load " << path);
  image.rgb.assign(data, data + static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 3);
  stbi_image_free(data);
  return image;
}

Rgb json_rgb(const nlohmann::json& c) { return {c[0].get<int>(), c[1].get<int>(), c[2].get<int>()}; }

// Every cell clear of the caption band shows its provenance: hatched when empty, else one
// stripe per contributor in that GPU's colour (dimmed when stale). Returns the cells checked.
int check_cells(const Image& image, const nlohmann::json& layout) {
  const auto& band = layout["lesson"]["caption_band"];
  const double band_top = band["y"].get<double>();
  const auto& colours = layout["colours"];
  const double stale = colours["stale_amount"].get<double>();
  const Rgb target = json_rgb(colours["stale_target"]);
  int checked = 0;
  for (const auto& gpu : layout["gpus"]) {
    for (const auto& cell : gpu["cells"]) {
      const auto& painted = cell["painted"];
      const double x = painted["x"].get<double>(), w = painted["w"].get<double>();
      const double y = painted["y"].get<double>(), h = painted["h"].get<double>();
      if (y + h >= band_top - 2 || w < 6 || h < 6) continue;  // under the caption, or too small to sample
      // The centre shows the pure colours unless the cell is short enough for its label to
      // reach it (ring_view.cpp, CellText::label): then sample between the label's bottom and
      // the heatmap band (the lower 36% of the cell).
      double cy = cell["centre"][1].get<double>();
      double label_bottom = y;
      for (const auto& text : layout["texts"]) {
        const double tx = text["x"].get<double>(), ty = text["y"].get<double>();
        const double tw = text["w"].get<double>(), th = text["h"].get<double>();
        // Texts starting above the centre: the label (the values sit in the bottom band).
        if (tx < x + w && tx + tw > x && ty < cy && ty + th > y) label_bottom = std::max(label_bottom, ty + th);
      }
      if (label_bottom + 1 >= cy) {
        const double band_top = y + h * 0.64;
        if (band_top - label_bottom < 3) continue;  // no pixel of pure colour to sample
        cy = (label_bottom + band_top) * 0.5;
      }
      const std::string state = cell["state"].get<std::string>();
      const auto& contributors = cell["contributors"];
      CAPTURE(gpu["rank"].get<int>());
      CAPTURE(cell["slot"].get<int>());
      CAPTURE(state);
      if (state == "empty") {
        const Rgb seen = image.at(cell["centre"][0].get<double>(), cy);
        const bool hatch = close(seen, json_rgb(colours["hatch"][0]), 2) || close(seen, json_rgb(colours["hatch"][1]), 2);
        INFO("seen " << to_string(seen));
        CHECK(hatch);
      } else {
        const std::size_t count = contributors.size();
        REQUIRE(count > 0);
        if (count > 16) continue;  // drawn as one colour, like the GUI's own tests assume
        for (std::size_t k = 0; k < count; ++k) {
          const Rgb base = json_rgb(colours["ranks"][contributors[k].get<int>()]);
          Rgb expected = base;
          if (state == "stale")
            expected = {static_cast<int>(std::lround(base.r + (target.r - base.r) * stale)),
                        static_cast<int>(std::lround(base.g + (target.g - base.g) * stale)),
                        static_cast<int>(std::lround(base.b + (target.b - base.b) * stale))};
          const Rgb seen = image.at(x + (static_cast<double>(k) + 0.5) * w / static_cast<double>(count), cy);
          INFO("stripe " << k << ": expected " << to_string(expected) << ", seen " << to_string(seen));
          CHECK(close(seen, expected, 2));
        }
      }
      ++checked;
    }
  }
  return checked;
}

// The band is dark, and the caption's white letters are in it.
void check_caption_band(const Image& image, const nlohmann::json& layout) {
  const auto& band = layout["lesson"]["caption_band"];
  const double x = band["x"].get<double>(), y = band["y"].get<double>();
  const double w = band["w"].get<double>(), h = band["h"].get<double>();
  REQUIRE(h > 0);
  CHECK(y + h <= image.height);
  int dark = 0, white = 0, total = 0;
  for (int py = static_cast<int>(y + h * 0.3); py < static_cast<int>(y + h - 1); py += 2)
    for (int px = static_cast<int>(x); px < static_cast<int>(x + w); px += 2) {
      const Rgb c = image.at(px, py);
      ++total;
      if (c.r < 60 && c.g < 60 && c.b < 60) ++dark;
      if (c.r > 230 && c.g > 230 && c.b > 230) ++white;
    }
  INFO("band " << x << "," << y << " " << w << "x" << h << ": " << dark << " dark and " << white << " white of " << total);
  CHECK(dark > total / 2);
  CHECK(white > 20);
}

// Renders one frame of `lesson` at `seconds` into `folder`, with its layout: in the desktop
// window's layout (--layout app), whose video clock is the lesson's (test_record_stage.cpp
// covers the stage).
std::pair<Image, nlohmann::json> lesson_frame_png(const fs::path& lesson, double seconds, const fs::path& folder,
                                                  const std::string& lang = "en") {
  const fs::path layout_path = folder / "layout.json";
  const Run run = run_ringviz({"record", "--lesson", lesson.string(), "--out", (folder / "frames").string() + "/",
                               "--size", "1280x720", "--fps", "10", "--from", std::to_string(seconds), "--seconds",
                               "0.1", "--lang", lang, "--dump-layout", layout_path.string(), "--layout", "app"});
  INFO("ringviz printed: " << run.output);
  REQUIRE(run.exit_code == 0);
  const std::vector<fs::path> frames = files_in(folder / "frames");
  REQUIRE(frames.size() == 1);
  std::ifstream in(layout_path);
  return {load_png(frames[0]), nlohmann::json::parse(in)};
}

}  // namespace

TEST_CASE("every shipped lesson validates and renders its first and last frame, cells and caption where the layout says") {
  const std::vector<fs::path> lessons = ringviz::list_lesson_files(fs::path(RINGVIZ_SOURCE_DIR) / "assets/lessons");
  REQUIRE(lessons.size() >= 6);
  for (const fs::path& file : lessons) {
    CAPTURE(file.filename().string());
    const ringviz::Lesson lesson = ringviz::load_lesson_file(file);  // throws when invalid
    for (const double t : {0.0, lesson.duration()}) {
      CAPTURE(t);
      const fs::path folder = fresh("lesson-" + file.stem().string() + (t == 0 ? "-first" : "-last"));
      const auto [image, layout] = lesson_frame_png(file, t, folder);
      CHECK(image.width == 1280);
      CHECK(image.height == 720);
      // The GUI shows the scene the lesson clock is in, at the round it says.
      const ringviz::LessonFrame expected = ringviz::lesson_frame(lesson, t, ringviz::Language::en);
      CHECK(layout["lesson"]["scene"].get<int>() == expected.scene_index);
      CHECK(layout["lesson"]["caption"].get<std::string>() == std::string(expected.caption));
      CHECK(layout["config"]["ranks"].get<int>() == expected.scene->config.ranks);
      CHECK(layout["rest_round"].get<int>() == expected.round);
      check_caption_band(image, layout);
      if (expected.scene->memory && expected.scene->memory->iteration) {
        // A whole-iteration scene shows the Memory tab, at the iteration model's peak, not the ring's cells.
        REQUIRE(layout["memory"]["mode"] == "iteration");
        const ringviz::IterationEstimate estimate = ringviz::estimate_iteration(*expected.scene->memory->iteration);
        CHECK(layout["memory"]["peak"]["bytes"] == estimate.peak.memory.total());
        CHECK(layout["memory"]["moment"]["event"] == estimate.peak.event + 1);
      } else if (expected.scene->config.channels * expected.scene->config.slices > 1) {
        // A pipelined scene draws each cell's pieces as bars across its middle, where
        // check_cells samples; the pipelined ring view's render tests check those pixels.
        CHECK(layout["pipeline"].is_object());
      } else if (!expected.scene->views.empty() && expected.scene->views.front() == ringviz::View::training) {
        // A training scene shows the Training tab, not the ring's cells (docs/lessons.md, "Views").
        CHECK(layout["view"] == "training");
      } else if (!expected.scene->views.empty() && expected.scene->views.front() == ringviz::View::job) {
        // A job scene shows the job's timeline (the Job view), not the ring's cells.
        CHECK(layout["view"] == "job");
      } else {
        CHECK(check_cells(image, layout) > 0);
      }
    }
  }
}

TEST_CASE("a Chinese lesson frame draws its caption with the CJK font") {
  if (access(ringviz::gui_test::scratch_dir().c_str(), W_OK) != 0 ||
      access("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", R_OK) != 0) {
    MESSAGE("fonts-wqy-microhei is not installed: skipped");
    return;
  }
  const fs::path file = fs::path(RINGVIZ_SOURCE_DIR) / "assets/lessons/03-ring-allgather.json";
  const auto [image, layout] = lesson_frame_png(file, 1.0, fresh("lesson-zh"), "zh");
  check_caption_band(image, layout);
}

TEST_CASE("a 2-second recording is an H.264 MP4 and a GIF with the frames and size asked for") {
  if (!have_program("ffmpeg") || !have_program("ffprobe")) {
    MESSAGE("ffmpeg/ffprobe not installed: skipped");
    return;
  }
  const fs::path folder = fresh("videos");
  const fs::path lesson = fs::path(RINGVIZ_SOURCE_DIR) / "assets/lessons/05-allreduce-traffic.json";
  SUBCASE("mp4") {
    const fs::path out = folder / "clip.mp4";
    const Run run = run_ringviz({"record", "--lesson", lesson.string(), "--out", out.string(), "--size", "640x360",
                                 "--fps", "12", "--seconds", "2"});
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(probe(out) == "h264,640,360,yuv420p,24");
  }
  SUBCASE("gif") {
    const fs::path out = folder / "clip.gif";
    const Run run = run_ringviz({"record", "--lesson", lesson.string(), "--out", out.string(), "--size", "640x360",
                                 "--fps", "10", "--seconds", "2"});
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(read_file(out).substr(0, 6) == "GIF89a");
    CHECK(probe(out) == "gif,640,360,bgra,20");
  }
  SUBCASE("a collective without a lesson") {
    const fs::path out = folder / "allgather.mp4";
    const Run run = run_ringviz({"record", "--op", "allgather", "--gpus", "3", "--out", out.string(), "--size",
                                 "320x240", "--fps", "10", "--seconds", "1.5"});
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(probe(out) == "h264,320,240,yuv420p,15");
  }
  // Nothing but the finished files is left behind: no temporary names.
  for (const fs::path& file : files_in(folder)) CHECK(file.filename().string()[0] != '.');
}

TEST_CASE("the same lesson gives byte-identical PNG frames on every run") {
  const fs::path lesson = fs::path(RINGVIZ_SOURCE_DIR) / "assets/lessons/04-ring-reducescatter.json";
  const fs::path folder = fresh("repeat");
  std::vector<std::vector<fs::path>> runs;
  for (const char* name : {"a/", "b/"}) {
    // From 7 s: packets in flight, highlights and a caption change within the clip.
    const Run run = run_ringviz({"record", "--lesson", lesson.string(), "--out", (folder / name).string(), "--size",
                                 "480x270", "--fps", "4", "--from", "7", "--seconds", "2"});
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    runs.push_back(files_in(folder / name));
  }
  REQUIRE(runs[0].size() == 8);
  REQUIRE(runs[1].size() == 8);
  for (std::size_t i = 0; i < runs[0].size(); ++i) {
    CAPTURE(runs[0][i].filename().string());
    CHECK(runs[0][i].filename() == runs[1][i].filename());
    CHECK(read_file(runs[0][i]) == read_file(runs[1][i]));
  }
  // And the frames differ from one another: the clock really moves.
  CHECK(read_file(runs[0].front()) != read_file(runs[0].back()));
}

TEST_CASE("without ffmpeg, a video fails naming the package, and PNG frames still work") {
  const fs::path folder = fresh("no-ffmpeg");
  // No ffmpeg on PATH, as on a machine without the package.
  const std::map<std::string, std::string> no_ffmpeg{{"PATH", "/nonexistent"}};
  const Run video = run_ringviz({"record", "--out", (folder / "x.mp4").string(), "--size", "320x240", "--seconds", "0.5"},
                                no_ffmpeg);
  CHECK(video.exit_code == 1);
  CHECK(video.output.find("install the 'ffmpeg' package") != std::string::npos);
  CHECK(!fs::exists(folder / "x.mp4"));
  const Run frames = run_ringviz({"record", "--out", (folder / "png").string() + "/", "--size", "320x240", "--fps", "4",
                                  "--seconds", "0.5"},
                                 no_ffmpeg);
  INFO(frames.output);
  CHECK(frames.exit_code == 0);
  CHECK(files_in(folder / "png").size() == 2);
}

TEST_CASE("a failing encoder or a full disk leaves no file under the final name") {
  const fs::path folder = fresh("failures");
  SUBCASE("the encoder exits with an error") {
    // A stand-in for ffmpeg that reads a little, then fails the way a full disk makes it fail.
    const fs::path fake = folder / "ffmpeg";
    std::ofstream(fake) << "#!/bin/sh\nhead -c 1000 > /dev/null\necho 'clip.mp4: No space left on device' >&2\nexit 1\n";
    fs::permissions(fake, fs::perms::owner_all);
    const Run run = run_ringviz({"record", "--out", (folder / "clip.mp4").string(), "--size", "320x240", "--seconds", "2"},
                                {{"RINGVIZ_FFMPEG", fake.string()}});
    CHECK(run.exit_code == 1);
    CHECK(run.output.find("No space left on device (disk full); free space or choose another path") !=
          std::string::npos);
    CHECK(!fs::exists(folder / "clip.mp4"));
  }
  SUBCASE("PNG frames past the file size limit (as when the disk fills)") {
    // RLIMIT_FSIZE through the shell's ulimit (a few KiB, per file): every frame's write fails
    // part way with EFBIG, as it would with ENOSPC.
    const std::string out = (folder / "frames").string() + "/";
    const std::string command = "ulimit -f 8; '" + std::string(RINGVIZ_EXECUTABLE) + "' record --out '" + out +
                                "' --size 640x360 --fps 10 --seconds 2 > '" + (folder / "log").string() + "' 2>&1";
    const int status = std::system(command.c_str());
    INFO(read_file(folder / "log"));
    CHECK(WEXITSTATUS(status) == 1);
    CHECK(read_file(folder / "log").find("past the allowed size") != std::string::npos);
    // The message names the folder the user gave, not the hidden temporary beside it.
    CHECK(read_file(folder / "log").find("cannot write " + (folder / "frames" / "frame-000000.png").string()) !=
          std::string::npos);
    CHECK(read_file(folder / "log").find(".partial") == std::string::npos);
    CHECK(!fs::exists(folder / "frames"));
  }
  for (const fs::path& file : files_in(folder)) CHECK(file.filename().string().find(".partial") == std::string::npos);
}

TEST_CASE("Ctrl-C during a recording deletes the temporary file and exits non-zero") {
  if (!have_program("ffmpeg")) {
    MESSAGE("ffmpeg not installed: skipped");
    return;
  }
  const fs::path folder = fresh("interrupt");
  const fs::path out = folder / "long.mp4";
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const std::string log = (folder / "log").string();
    std::freopen(log.c_str(), "w", stdout);
    std::freopen(log.c_str(), "a", stderr);
    execl(RINGVIZ_EXECUTABLE, RINGVIZ_EXECUTABLE, "record", "--out", out.c_str(), "--size", "320x240", "--fps", "30",
          "--seconds", "600", static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the temporary file exists (frames are flowing), then interrupt.
  bool started = false;
  for (int i = 0; i < 600 && !started; ++i) {
    for (const fs::path& file : files_in(folder))
      if (file.filename().string().find(".partial") != std::string::npos) started = true;
    if (!started) usleep(50 * 1000);
  }
  usleep(300 * 1000);
  kill(child, SIGINT);
  int status = 0;
  waitpid(child, &status, 0);
  INFO(read_file(folder / "log"));
  CHECK(started);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK(!fs::exists(out));
  for (const fs::path& file : files_in(folder)) CHECK(file.filename().string().find(".partial") == std::string::npos);
}

TEST_CASE("the success line of a recording shows control characters in the output name as escapes") {
  const fs::path folder = fresh("escaped");
  const std::string name = "y\x1b[31m";
  const Run run = run_ringviz({"record", "--out", (folder / name).string() + "/", "--size", "320x240", "--fps", "5",
                               "--seconds", "0.2"});
  INFO(run.output);
  CHECK(run.exit_code == 0);
  CHECK(run.output.find("ringviz: wrote " + (folder / "y\\x1b[31m").string() + "/ (PNG frames") != std::string::npos);
  CHECK(run.output.find('\x1b') == std::string::npos);
  CHECK(fs::is_directory(folder / name));
}

TEST_CASE("record rejects bad input with exit code 2 and one line naming the flag") {
  const fs::path folder = fresh("bad");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"record", "--out", (folder / "x.avi").string()}, "--out"},
      {{"record", "--out", (folder / "x.mp4").string(), "--fps", "0"}, "--fps"},
      {{"record", "--out", (folder / "x.mp4").string(), "--size", "100"}, "--size"},
      {{"record", "--out", (folder / "x.mp4").string(), "--lang", "fr"}, "--lang"},
      {{"record", "--out", (folder / "x.mp4").string(), "--lesson", (folder / "missing.json").string()}, "missing.json"},
      {{"record", "--out", (folder / "x.mp4").string(), "--lesson",
        std::string(RINGVIZ_SOURCE_DIR) + "/assets/lessons/03-ring-allgather.json", "--gpus", "8"},
       "--gpus"},
  };
  for (const auto& [arguments, flag] : cases) {
    CAPTURE(arguments.back());
    const Run run = run_ringviz(arguments);
    CHECK(run.exit_code == 2);
    CHECK(run.output.find(flag) != std::string::npos);
  }
}

TEST_CASE("record refuses a bad init file and a 100000-deep lesson with exit 2, not a crash") {
  const fs::path folder = fresh("hostile");
  const fs::path init = folder / "nan.json";
  std::ofstream(init) << "[[1, \"nan\"], [3, 4]]";
  const Run bad_init = run_ringviz({"record", "--out", (folder / "frames").string(), "--gpus", "2", "--count", "2",
                                    "--dtype", "i64", "--init", "file:" + init.string()});
  INFO(bad_init.output);
  CHECK(bad_init.exit_code == 2);
  CHECK(bad_init.output.find("\"nan\" does not fit i64") != std::string::npos);

  const fs::path deep = folder / "deep.json";
  std::ofstream(deep) << std::string(100000, '[') + std::string(100000, ']');
  const Run deep_lesson = run_ringviz({"record", "--out", (folder / "frames").string(), "--lesson", deep.string()});
  INFO(deep_lesson.output);
  CHECK(deep_lesson.exit_code == 2);
  CHECK(deep_lesson.output.find(deep.string() + ":1:65: nested more than 64 levels deep") != std::string::npos);
  CHECK(files_in(folder / "frames").empty());
}
