#include "render_harness.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <doctest/doctest.h>
#include <stb_image.h>

extern char** environ;

namespace ringviz::gui_test {

std::filesystem::path scratch_dir() {
  static const std::filesystem::path dir = [] {
    auto path = std::filesystem::temp_directory_path() / ("ringviz-gui-tests-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
    return path;
  }();
  return dir;
}

Run run_ringviz(const std::vector<std::string>& arguments, const std::map<std::string, std::string>& environment) {
  const std::filesystem::path log = scratch_dir() / "run.log";
  Run result;
  const pid_t child = ::fork();
  if (child == 0) {
    for (const auto& [name, value] : environment) {
      if (value.empty()) ::unsetenv(name.c_str());
      else ::setenv(name.c_str(), value.c_str(), 1);
    }
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv{const_cast<char*>(RINGVIZ_EXECUTABLE)};
    for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execve(RINGVIZ_EXECUTABLE, argv.data(), environ);
    std::perror("execve");
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream in(log);
  result.output.assign(std::istreambuf_iterator<char>(in), {});
  return result;
}

const std::vector<std::uint8_t>& Frame::rgb() const {
  // FAIL rather than REQUIRE: this runs for every pixel read, and a passing REQUIRE per pixel
  // would add millions of assertions to the suite.
  if (!has_pixels_)
    FAIL("this frame was rendered with Capture::layout_only: render it with pixels "
         "(Capture::layout_and_pixels) to read them");
  return rgb_;
}

Rgb Frame::pixel(int x, int y) const {
  const std::vector<std::uint8_t>& pixels = rgb();
  REQUIRE(x >= 0);
  REQUIRE(y >= 0);
  REQUIRE(x < width);
  REQUIRE(y < height);
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3;
  return {pixels[i], pixels[i + 1], pixels[i + 2]};
}

Rgb Frame::rank_colour(int rank) const {
  const auto& c = layout["colours"]["ranks"][rank];
  return {c[0].get<int>(), c[1].get<int>(), c[2].get<int>()};
}

Rgb Frame::stale_colour(int rank) const {
  const Rgb base = rank_colour(rank);
  const auto& t = layout["colours"]["stale_target"];
  const double a = layout["colours"]["stale_amount"].get<double>();
  auto mix = [a](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * a)); };
  return {mix(base.r, t[0].get<int>()), mix(base.g, t[1].get<int>()), mix(base.b, t[2].get<int>())};
}

Frame render(const std::vector<std::string>& arguments, Capture capture) {
  static int counter = 0;
  const std::string stem = (scratch_dir() / ("frame" + std::to_string(++counter))).string();
  const bool pixels = capture != Capture::layout_only;
  const bool layout = capture != Capture::pixels_only;
  std::vector<std::string> args{"--headless"};
  if (pixels) args.insert(args.end(), {"--screenshot", stem + ".png"});
  if (layout) args.insert(args.end(), {"--dump-layout", stem + ".json"});
  args.insert(args.end(), arguments.begin(), arguments.end());
  Frame frame;
  frame.run = run_ringviz(args);
  INFO("ringviz printed: " << frame.run.output);
  REQUIRE(frame.run.exit_code == 0);
  if (pixels) {
    int channels = 0;
    unsigned char* data = stbi_load((stem + ".png").c_str(), &frame.width, &frame.height, &channels, 3);
    REQUIRE(data != nullptr);
    frame.rgb_.assign(data, data + static_cast<std::size_t>(frame.width) * static_cast<std::size_t>(frame.height) * 3);
    stbi_image_free(data);
    frame.has_pixels_ = true;
  }
  if (layout) {
    std::ifstream in(stem + ".json");
    frame.layout = nlohmann::json::parse(in);
    if (!pixels) {
      frame.width = frame.layout["window"]["width"].get<int>();
      frame.height = frame.layout["window"]["height"].get<int>();
    }
  }
  return frame;
}

bool close(Rgb a, Rgb b, int tolerance) {
  return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance && std::abs(a.b - b.b) <= tolerance;
}

std::string to_string(Rgb c) {
  return "(" + std::to_string(c.r) + ", " + std::to_string(c.g) + ", " + std::to_string(c.b) + ")";
}

bool rendering_available(std::string& why) {
  const std::string png = (scratch_dir() / "probe.png").string();
  const Run probe = run_ringviz({"--headless", "--size", "320x200", "--screenshot", png});
  why = probe.output;
  // Only ringviz's own "no context" answer means skip; any other failure is a failure.
  return !(probe.exit_code == 2 && probe.output.find("no OpenGL context") != std::string::npos);
}

}  // namespace ringviz::gui_test
