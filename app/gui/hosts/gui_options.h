#pragma once
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/model/config.h"

namespace ringviz::gui {

// The top-level options of `ringviz` without a subcommand (the GUI), as typed.
struct GuiFlags {
  bool headless = false;
  std::string size;         // WxH; default: the saved window size (1600x900 headless)
  std::string round;        // a timeline position: 2 = after round 2, 2.5 = round 3 mid-flight
  std::string screenshot;   // PNG path
  std::string dump_layout;  // JSON path
  std::string resize;       // WxH: headless, draw at --size first, then capture at this size
  int bench_frames = 0;
  std::vector<int> bench_gpus{4, 16, 64, 256};
  std::string theme;        // a name of kThemeNames (overrides the saved preference)
  std::string palette;      // a name of kPaletteNames
  std::string settings;     // a settings file, or "off"
  float ui_scale = 0;       // 0: the monitor's content scale (1 headless)
  std::string lang;         // en | zh: --lang of the common options, copied here by main()
  bool verbose = false;     // --verbose of the common options, copied here by main()
  bool present = false;     // start in presentation mode
  float present_scale = 0;  // presentation text size, 1.5 to 3 (0: the default, 2)
  bool predict = false;     // start in predict mode
  std::string view;         // a name of kCentreViewNames: the centre view to open on
  std::string compare_topology;  // the Compare tab's topology kind ("ring"), sized by --gpus
  std::string open;         // a ringviz.trace/1 document to replay
  std::string memory_model; // a transformer preset: the Memory tab opens on its whole iteration
  bool show_command = false;  // open the Copy command window at start
  std::string state_file;   // for tests: the window rewrites this JSON file after every frame
};

void add_gui_flags(CLI::App& app, GuiFlags& flags);

// The smallest window the GUI accepts: a real window can be dragged down to one pixel, so the
// headless --size and --resize go that low too, for tests to draw every size a user can.
inline constexpr int kMinWindowPixels = 1;
// Parses "1600x900", each side from `min_pixels` to 16384; throws InputError naming `flag`.
// The default minimum is `ringviz record`'s (a video frame smaller than that is no use).
void parse_size(const std::string& text, const std::string& flag, int& width, int& height, int min_pixels = 64);

// Runs the GUI: a window, or headless when asked (or when only output files are wanted).
// `count_given`: --count was on the command line (the benchmark picks its own otherwise).
// Returns the exit code: 0, 1 runtime failure, 2 bad usage or no way to render.
int run_gui(const GuiFlags& flags, const Config& config, BackendChoice backend, bool count_given);

}  // namespace ringviz::gui
