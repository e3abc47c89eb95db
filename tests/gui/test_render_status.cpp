// The controls bar's backend status (app/gui/panels/controls_bar.cpp): a few words that stay
// whole inside the window at 1280x720 and 1600x900, in English and Chinese, with text twice the size;
// on the CPU fallback they say so ("CPU (no CUDA device)", or "CPU (no CUDA in this build)"
// where ringviz was built without CUDA). Presentation mode, which a class watches, leaves it out.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "render_harness.h"

using namespace ringviz::gui_test;

namespace {

// The CPU fallback's few words: no device was even looked for in a build without CUDA.
std::string expected_cpu_status(const Frame& frame, bool zh) {
  if (frame.layout["graphics"]["built_without_cuda"] == true)
    return zh ? "CPU（此版本无 CUDA）" : "CPU (no CUDA in this build)";
  return zh ? "CPU（无 CUDA 设备）" : "CPU (no CUDA device)";
}

void check_status_inside(const Frame& frame) {
  const nlohmann::json& status = frame.layout["status"];
  CAPTURE(status.dump());
  REQUIRE(status["text"].get<std::string>() != "");
  REQUIRE(status["rect"].is_object());
  const double x = status["rect"]["x"], y = status["rect"]["y"], w = status["rect"]["w"], h = status["rect"]["h"];
  CHECK(w > 0);
  CHECK(h > 0);
  CHECK(x >= 0);
  CHECK(y >= 0);
  CHECK(x + w <= frame.width);
  CHECK(y + h <= frame.height);
  // Inside the controls bar too: nothing of it hangs over another panel or off the bar's end.
  const nlohmann::json& bar = frame.layout["panels"]["controls"];
  CHECK(x >= bar["x"].get<double>());
  CHECK(x + w <= bar["x"].get<double>() + bar["w"].get<double>());
  if (frame.layout["graphics"]["backend"] == "cpu") {
    const std::string text = status["text"];
    const bool zh = frame.layout["language"] == "zh";
    CHECK((text == expected_cpu_status(frame, zh) || text == "CPU"));
  }
}

}  // namespace

TEST_CASE("the backend status is whole inside the window at 1280x720 and 1600x900") {
  for (const char* size : {"1280x720", "1600x900"})
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{}, {"--lang", "zh"}, {"--ui-scale", "2"}, {"--ui-scale", "2", "--lang", "zh"}}) {
      std::vector<std::string> arguments = {"--size", size, "--round", "1"};
      arguments.insert(arguments.end(), extra.begin(), extra.end());
      CAPTURE(size);
      CAPTURE(extra.size());
      const Frame frame = render(arguments, Capture::layout_only);
      check_status_inside(frame);
      // The fallback's sentence is no longer a notice in the bar: a successful start prints nothing.
      CHECK(frame.run.output.find("using the CPU backend") == std::string::npos);
    }
}

TEST_CASE("presentation mode leaves the backend status out of the controls bar") {
  for (const char* size : {"1280x720", "1920x1080"})
    for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"--lang", "zh"}}) {
      std::vector<std::string> arguments = {"--size", size, "--round", "1", "--present"};
      arguments.insert(arguments.end(), extra.begin(), extra.end());
      CAPTURE(size);
      CAPTURE(extra.size());
      const Frame frame = render(arguments, Capture::layout_only);
      CAPTURE(frame.layout["status"].dump());
      REQUIRE(frame.layout["presentation"] == true);
      CHECK(frame.layout["status"]["text"] == "");
      CHECK(frame.layout["status"]["rect"].is_null());
      // The same frame without --present does show it: the mode, not the size, left it out.
      arguments.erase(std::find(arguments.begin(), arguments.end(), "--present"));
      check_status_inside(render(arguments, Capture::layout_only));
    }
}

TEST_CASE("at 1600x900 the fallback status is the full few words, not the shortest form") {
  const Frame frame = render({"--size", "1600x900"}, Capture::layout_only);
  check_status_inside(frame);
  if (frame.layout["graphics"]["backend"] == "cpu")
    CHECK(frame.layout["status"]["text"] == expected_cpu_status(frame, false));
}

namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("--verbose says the CPU fallback only after the inputs were accepted, and at most once") {
  // Refused inputs: the one error line, no backend notice before it.
  const std::vector<std::vector<std::string>> refused = {
      {"--headless", "--state-file", (scratch_dir() / "state.json").string(), "--verbose"},
      {"--headless", "--round", "99", "--verbose"},
      {"record", "--seconds", "0", "--out", (scratch_dir() / "v.mp4").string(), "--verbose"},
      {"record", "--from", "-1", "--out", (scratch_dir() / "v.mp4").string(), "--verbose"},
      {"record", "--fps", "0", "--out", (scratch_dir() / "frames").string(), "--verbose"}};
  for (const std::vector<std::string>& arguments : refused) {
    CAPTURE(arguments.at(1));
    const Run run = run_ringviz(arguments, {{"RINGVIZ_SETTINGS", "off"}});
    CAPTURE(run.output);
    CHECK(run.exit_code == 2);
    CHECK(occurrences(run.output, "\n") == 1);
    CHECK(run.output.find("using the CPU backend") == std::string::npos);
  }
  // Accepted: the session's own notice, once (none where CUDA ran).
  const Frame frame = render({"--size", "640x360", "--verbose"}, Capture::layout_only);
  CHECK(occurrences(frame.run.output, "using the CPU backend") <= 1);
  if (frame.layout["graphics"]["backend"] == "cpu") CHECK(occurrences(frame.run.output, "using the CPU backend") == 1);
}
