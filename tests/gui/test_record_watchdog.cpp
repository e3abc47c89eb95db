// `ringviz record` never waits forever on ffmpeg (docs/recording.md, "When ffmpeg hangs"): an
// encoder that stops reading frames, or that takes them all and then never exits, is stopped
// once it has shown no sign of work for RINGVIZ_ENCODER_TIMEOUT seconds; the recording exits 1
// with one line and leaves nothing under the final name. Fake encoders stand in for ffmpeg.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "render_harness.h"

using namespace ringviz::gui_test;
namespace fs = std::filesystem;

namespace {

fs::path clean_folder(const std::string& name) {
  const fs::path folder = scratch_dir() / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

// An executable shell script standing in for ffmpeg, named so that PATH finds it.
fs::path stand_in_ffmpeg(const fs::path& folder, const std::string& body) {
  const fs::path script = folder / "ffmpeg";
  std::ofstream(script) << "#!/bin/sh\n" << body;
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A recording of 20 frames of 320x240 (6 MB, more than the 1 MiB pipe holds) with the encoder
// found on PATH, as a user's would be, and a one-second watchdog.
Run record_with(const fs::path& folder, const std::string& out) {
  const std::string path = folder.string() + ":" + (std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin");
  return run_ringviz({"record", "--out", (folder / out).string(), "--size", "320x240", "--fps", "10", "--seconds", "2"},
                     {{"PATH", path}, {"RINGVIZ_FFMPEG", ""}, {"RINGVIZ_ENCODER_TIMEOUT", "1"}});
}

}  // namespace

TEST_CASE("an ffmpeg that never reads its input is stopped by the watchdog: exit 1, one line, no file") {
  const fs::path folder = clean_folder("watchdog-never-reads");
  stand_in_ffmpeg(folder, "exec sleep 1000\n");
  const Run run = record_with(folder, "clip.mp4");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("ringviz: ffmpeg stopped reading frames: it took none for 1 s and did no work "
                        "(RINGVIZ_ENCODER_TIMEOUT sets how long to wait); it was stopped and nothing was written to " +
                        (folder / "clip.mp4").string()) != std::string::npos);
  CHECK(names_in(folder) == std::vector<std::string>{"ffmpeg"});
}

TEST_CASE("an ffmpeg that takes every frame and never exits is stopped by the watchdog: exit 1, no file") {
  const fs::path folder = clean_folder("watchdog-never-exits");
  // Takes all the frames, writes the start of a GIF, then hangs.
  stand_in_ffmpeg(folder, "for last; do :; done\ncat > /dev/null\nprintf 'GIF89a' > \"$last\"\nexec sleep 1000\n");
  const Run run = record_with(folder, "clip.gif");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("ringviz: ffmpeg did not finish: after the last frame it did no work for 1 s and did not exit "
                        "(RINGVIZ_ENCODER_TIMEOUT sets how long to wait); it was stopped and nothing was written to " +
                        (folder / "clip.gif").string()) != std::string::npos);
  CHECK(names_in(folder) == std::vector<std::string>{"ffmpeg"});
}

TEST_CASE("a watchdog limit that is not a number of seconds is refused before any frame is drawn") {
  const fs::path folder = clean_folder("watchdog-bad-limit");
  stand_in_ffmpeg(folder, "cat > /dev/null\n");
  const Run run = run_ringviz({"record", "--out", (folder / "clip.mp4").string(), "--size", "320x240", "--seconds", "1"},
                              {{"RINGVIZ_FFMPEG", (folder / "ffmpeg").string()}, {"RINGVIZ_ENCODER_TIMEOUT", "soon"}});
  INFO(run.output);
  CHECK(run.exit_code == 2);
  CHECK(run.output.find("RINGVIZ_ENCODER_TIMEOUT: 'soon' is not a number of seconds (above 0, at most 86400; "
                        "unset: 60 s)") != std::string::npos);
  CHECK(names_in(folder) == std::vector<std::string>{"ffmpeg"});
}
