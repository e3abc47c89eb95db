#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ringviz::gui_test {

struct Rgb {
  int r = 0, g = 0, b = 0;
};

// What one run of the ringviz executable did.
struct Run {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs the ringviz built with these tests, without a shell. `environment` entries are set
// for the child (an empty value unsets the variable).
Run run_ringviz(const std::vector<std::string>& arguments,
                const std::map<std::string, std::string>& environment = {});

// What render() asks ringviz to write. Encoding and decoding the PNG costs more than drawing
// the frame, so a case that reads only the layout JSON asks for the layout alone.
enum class Capture {
  layout_and_pixels,
  layout_only,
  pixels_only,
};

// A headless frame: the PNG and the layout JSON that `ringviz --headless` wrote.
struct Frame {
  // The PNG's size; for a layout-only frame, the layout's window size, which ringviz takes
  // from the same framebuffer.
  int width = 0, height = 0;
  nlohmann::json layout;
  Run run;

  // 3 bytes per pixel, top row first. Ends the test case, saying why, where the frame was
  // rendered without pixels.
  const std::vector<std::uint8_t>& rgb() const;
  Rgb pixel(int x, int y) const;
  Rgb pixel_at(double x, double y) const { return pixel(static_cast<int>(x), static_cast<int>(y)); }
  const nlohmann::json& cell(int rank, int slot) const { return layout["gpus"][rank]["cells"][slot]; }
  Rgb rank_colour(int rank) const;
  // The colour a dimmed (stale) cell of `rank` should have.
  Rgb stale_colour(int rank) const;

 private:
  friend Frame render(const std::vector<std::string>& arguments, Capture capture);
  bool has_pixels_ = false;
  std::vector<std::uint8_t> rgb_;
};

// Renders `arguments` plus --headless and, as `capture` asks, --screenshot and --dump-layout
// into a temporary folder and loads the files. CHECKs the exit code.
Frame render(const std::vector<std::string>& arguments, Capture capture = Capture::layout_and_pixels);

// True when the colours differ by at most `tolerance` in every channel.
bool close(Rgb a, Rgb b, int tolerance = 1);
std::string to_string(Rgb c);

// False only when ringviz reports that no OpenGL context exists here (neither a display nor
// EGL); `why` is what it printed.
bool rendering_available(std::string& why);

std::filesystem::path scratch_dir();

}  // namespace ringviz::gui_test
