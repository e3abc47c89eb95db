// A failing machine is never reported as success: screenshots, layout dumps and recordings on
// a full disk or /dev/full exit 1 with one line and leave nothing under the final name; a video
// that ffmpeg "finished" but cut short is caught; bad output paths and odd MP4 sizes exit 2
// before anything is drawn; the first SIGINT, SIGTERM or SIGHUP ends a stalled recording at once.
#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "render_harness.h"
#include "tests/core/small_disk.h"

using namespace ringviz::gui_test;
namespace fs = std::filesystem;

namespace {

fs::path empty_folder(const std::string& name) {
  const fs::path folder = scratch_dir() / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

// Nothing of ours is left in `folder`: no temporary, and no file under any other name.
void check_only(const fs::path& folder, const std::vector<std::string>& expected) {
  std::vector<std::string> seen;
  for (const auto& entry : fs::directory_iterator(folder)) seen.push_back(entry.path().filename().string());
  std::sort(seen.begin(), seen.end());
  CHECK(seen == expected);
}

// An executable shell script standing in for ffmpeg.
fs::path fake_ffmpeg(const fs::path& folder, const std::string& body) {
  const fs::path script = folder / "ffmpeg";
  std::ofstream(script) << "#!/bin/sh\n" << body;
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

bool last_line_is(const std::string& output, const std::string& line) {
  std::string text = output;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const std::size_t start = text.rfind('\n');
  return text.substr(start == std::string::npos ? 0 : start + 1) == line;
}

}  // namespace

TEST_CASE("a screenshot or a layout dump to /dev/full exits 1 saying the disk is full, /dev/null succeeds") {
  for (const char* flag : {"--screenshot", "--dump-layout"}) {
    CAPTURE(flag);
    const Run full = run_ringviz({"--headless", "--size", "320x200", flag, "/dev/full"});
    CHECK(full.exit_code == 1);
    CHECK(last_line_is(full.output,
                       "ringviz: cannot write /dev/full: No space left on device (disk full); free space or choose "
                       "another path"));
    const Run null = run_ringviz({"--headless", "--size", "320x200", flag, "/dev/null"});
    CHECK(null.exit_code == 0);
  }
}

TEST_CASE("a screenshot onto a full disk exits 1 and leaves neither a file nor a temporary") {
  ringviz::test::SmallDisk disk("64k");
  if (!disk.available()) {
    MESSAGE("cannot mount a tmpfs here: the full-disk part was skipped (the /dev/full test covers the message)");
    return;
  }
  disk.fill("ballast", 4096);
  const fs::path shot = disk.path() / "shot.png";
  const Run run = run_ringviz({"--headless", "--size", "800x600", "--screenshot", shot.string()});
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(last_line_is(run.output, "ringviz: cannot write " + shot.string() +
                                     ": No space left on device (disk full); free space or choose another path"));
  check_only(disk.path(), {"ballast"});
}

TEST_CASE("bad output paths exit 2 with one line naming the flag, before anything is drawn") {
  const fs::path folder = empty_folder("bad-outputs");
  std::ofstream(folder / "notes.txt") << "mine";
  const std::string dir = folder.string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--headless", "--screenshot", ""}, "--screenshot: the path is empty"},
      {{"--headless", "--screenshot", dir}, "--screenshot: '" + dir + "' is a folder"},
      {{"--headless", "--screenshot", dir + "/missing/x.png"}, "the folder '" + dir + "/missing' does not exist"},
      {{"--headless", "--screenshot", dir + "/x.jpg"}, "ringviz writes PNG only"},
      {{"--headless", "--dump-layout", dir + "/layout.txt"}, "ringviz writes JSON only"},
      {{"--state-file", dir + "/state.txt"}, "--state-file: '" + dir + "/state.txt': ringviz writes JSON only"},
      {{"--state-file", dir + "/missing/state.json"}, "--state-file: the folder '" + dir + "/missing' does not exist"},
      {{"--headless", "--state-file", dir + "/state.json"}, "--state-file describes the interactive window"},
      {{"record", "--out", dir + "/missing/clip.mp4"}, "--out: the folder '" + dir + "/missing' does not exist"},
      {{"record", "--out", dir + "/notes.txt/"}, "--out: '" + dir + "/notes.txt' is a file, not a folder"},
      {{"record", "--out", dir + "/"}, "holds other files (notes.txt)"},
      // An existing folder (or a path ending in '/') takes one layout per frame.
      {{"record", "--out", dir + "/clip.mp4", "--dump-layout", dir}, "--dump-layout: the folder '" + dir + "' holds other files (notes.txt)"},
      {{"record", "--out", dir + "/clip.mp4", "--dump-layout", dir + "/missing/layouts/"},
       "--dump-layout: the folder '" + dir + "/missing' does not exist"},
      {{"record", "--out", dir + "/frames/", "--dump-layout", dir + "/frames/"},
       "--dump-layout: '" + dir + "/frames/' is the --out folder of the PNG frames"},
  };
  for (const auto& [arguments, message] : cases) {
    CAPTURE(arguments.back());
    const Run run = run_ringviz(arguments);
    CHECK(run.exit_code == 2);
    CHECK(run.output.find(message) != std::string::npos);
    CHECK(std::count(run.output.begin(), run.output.end(), '\n') == 1);
  }
  check_only(folder, {"notes.txt"});
}

TEST_CASE("an odd size for an .mp4 exits 2 up front, naming even sizes that work") {
  const fs::path folder = empty_folder("odd-size");
  const Run run = run_ringviz({"record", "--size", "641x361", "--out", (folder / "v.mp4").string()},
                              {{"RINGVIZ_FFMPEG", fake_ffmpeg(folder, "exit 1\n").string()}});
  CHECK(run.exit_code == 2);
  CHECK(last_line_is(run.output, "ringviz: --size: 641x361: an .mp4 (H.264) needs an even width and height; use "
                                 "640x360 or 642x362, or record a .gif or PNG frames"));
  check_only(folder, {"ffmpeg"});
}

TEST_CASE("a video that ffmpeg reports as written but cut short exits 1 with nothing under the final name") {
  const fs::path folder = empty_folder("cut-short");
  // Takes every frame, then writes only the start of a file and claims success.
  const fs::path fake = fake_ffmpeg(folder, "for last; do :; done\ncat > /dev/null\n"
                                            "printf '\\000\\000\\000\\040ftypisom' > \"$last\"\nexit 0\n");
  for (const char* name : {"clip.mp4", "clip.gif"}) {
    CAPTURE(name);
    const fs::path out = folder / name;
    const Run run = run_ringviz({"record", "--out", out.string(), "--size", "320x240", "--fps", "10", "--seconds", "0.5"},
                                {{"RINGVIZ_FFMPEG", fake.string()}});
    CHECK(run.exit_code == 1);
    CHECK(run.output.find("ringviz: cannot write " + out.string() + ": ffmpeg reported success, but the ") !=
          std::string::npos);
    check_only(folder, {"ffmpeg"});
  }
}

TEST_CASE("a video whose boxes look whole but that ffprobe next to ffmpeg cannot read exits 1") {
  const fs::path folder = empty_folder("unreadable");
  // An ftyp box and an empty moov box: structurally whole, but no video in it.
  const fs::path fake = fake_ffmpeg(folder, "for last; do :; done\ncat > /dev/null\n"
                                            "printf '\\000\\000\\000\\010ftyp\\000\\000\\000\\010moov' > \"$last\"\n");
  std::ofstream(folder / "ffprobe") << "#!/bin/sh\nexit 1\n";
  fs::permissions(folder / "ffprobe", fs::perms::owner_all);
  const fs::path out = folder / "clip.mp4";
  const Run run = run_ringviz({"record", "--out", out.string(), "--size", "320x240", "--fps", "10", "--seconds", "0.5"},
                              {{"RINGVIZ_FFMPEG", fake.string()}});
  CHECK(run.exit_code == 1);
  CHECK(last_line_is(run.output, "ringviz: cannot write " + out.string() +
                                     ": ffmpeg reported success, but ffprobe cannot read it; nothing was written there"));
  check_only(folder, {"ffmpeg", "ffprobe"});
}

TEST_CASE("a recording onto a full disk exits 1 saying the disk is full, and leaves nothing behind") {
  ringviz::test::SmallDisk disk("200k");
  if (!disk.available()) {
    MESSAGE("cannot mount a tmpfs here: the full-disk recordings were skipped");
    return;
  }
  std::vector<std::string> outputs = {"frames/"};
  if (std::system("command -v ffmpeg > /dev/null 2>&1") == 0) outputs.push_back("clip.mp4");
  else MESSAGE("ffmpeg not installed: the MP4 on a full disk was skipped");
  for (const std::string& name : outputs) {
    CAPTURE(name);
    const Run run = run_ringviz({"record", "--out", (disk.path() / name).string(), "--size", "640x360", "--fps", "30",
                                 "--seconds", "20"});
    CHECK(run.exit_code == 1);
    CHECK(run.output.find("No space left on device (disk full); free space or choose another path") !=
          std::string::npos);
    CHECK(fs::is_empty(disk.path()));
  }
}

TEST_CASE("the first SIGTERM, SIGINT or SIGHUP ends a recording whose encoder stopped reading, and kills the encoder") {
  const fs::path folder = empty_folder("stalled");
  const fs::path pid_file = folder / "encoder.pid";
  // Never reads: the pipe fills and ringviz's writes would block for ever.
  const fs::path fake = fake_ffmpeg(folder, "echo $$ > '" + pid_file.string() + "'\nexec sleep 600\n");
  for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
    CAPTURE(signal);
    fs::remove(pid_file);
    const fs::path out = folder / "long.mp4";
    const fs::path log = folder / "log";
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      ::setenv("RINGVIZ_FFMPEG", fake.c_str(), 1);
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::execl(RINGVIZ_EXECUTABLE, RINGVIZ_EXECUTABLE, "record", "--out", out.c_str(), "--size", "640x480",
              "--seconds", "600", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // The encoder is running (and soon stalled) once it has written its pid.
    const auto encoder_started = [&] {
      std::error_code missing;
      return fs::exists(pid_file, missing) && fs::file_size(pid_file, missing) > 0;
    };
    for (int i = 0; i < 600 && !encoder_started(); ++i) usleep(50 * 1000);
    REQUIRE(encoder_started());
    usleep(500 * 1000);
    ::kill(child, signal);
    // One signal must do; a run that ignored it would still be waiting on the encoder.
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 400 && done == 0; ++i) {
      done = ::waitpid(child, &status, WNOHANG);
      if (done == 0) usleep(50 * 1000);
    }
    if (done == 0) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      FAIL("ringviz was still running 20 s after one signal");
    }
    std::ifstream log_in(log);
    const std::string output{std::istreambuf_iterator<char>(log_in), std::istreambuf_iterator<char>()};
    INFO(output);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 128 + signal);
    CHECK(output == "ringviz: interrupted; nothing was written to " + out.string() + "\n");
    int encoder = 0;
    std::ifstream(pid_file) >> encoder;
    REQUIRE(encoder > 0);
    CHECK(::kill(encoder, 0) != 0);  // killed and reaped
    fs::remove(log);
    fs::remove(pid_file);
    check_only(folder, {"ffmpeg"});
  }
}
