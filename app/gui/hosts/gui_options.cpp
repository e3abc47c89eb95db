#include "app/gui/hosts/gui_options.h"

#include <cstdio>
#include <iostream>

#include "app/gui/hosts/hosts.h"
#include "app/cli/number_flags.h"
#include "app/gui/views/centre_view.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/gui/render/theme.h"
#include "core/io/output_path.h"
#include "core/model/initial_values.h"

namespace ringviz::gui {

void add_gui_flags(CLI::App& app, GuiFlags& flags) {
  // Everything below is listed under "GUI" in --help; options added later keep their group.
  const std::string previous_group = app.option_defaults()->get_group();
  app.option_defaults()->group("GUI");
  app.add_flag("--headless", flags.headless,
               "render without showing a window (hidden GLFW window, or EGL without a display)");
  app.add_option("--size", flags.size, "window or image size, WxH (default 1600x900)");
  app.add_option("--round", flags.round,
                 "open at this point of the timeline: K = after round K, K.5 = halfway through round K+1");
  // Output paths are checked as they are parsed, before any rendering (core/io/output_path.h).
  app.add_option("--screenshot", flags.screenshot, "headless: write the frame to this PNG file")
      ->each([](const std::string& path) { check_output_file(path, "--screenshot", ".png"); });
  app.add_option("--dump-layout", flags.dump_layout,
                 "headless: write every GPU box and cell rectangle to this JSON file")
      ->each([](const std::string& path) { check_output_file(path, "--dump-layout", ".json"); });
  app.add_option("--resize", flags.resize, "headless: draw at --size, then resize to WxH before capturing");
  app.add_option("--bench-frames", flags.bench_frames,
                 "headless: time this many frames while playing, for 4, 16, 64 and 256 GPUs");
  app.add_option("--bench-gpus", flags.bench_gpus, "the ring sizes --bench-frames times (default 4 16 64 256)")
      ->delimiter(',');
  app.add_option("--theme", flags.theme, choice_help(kThemeNames));
  app.add_option("--palette", flags.palette, choice_help(kPaletteNames));
  app.add_option("--settings", flags.settings,
                 "settings file to use, or 'off' (default ~/.config/ringviz/settings.json; "
                 "headless runs use none unless given)");
  app.add_option("--ui-scale", flags.ui_scale, "scale text and widgets (default: the monitor's)");
  app.add_flag("--present", flags.present,
               "start in presentation mode: large text, high contrast, no setup panel (key P)");
  app.add_option("--present-scale", flags.present_scale, "presentation text size, 1.5 to 3 (default 2)");
  app.add_flag("--predict", flags.predict, "start in predict mode: guess each round before it plays (key G)");
  app.add_option("--view", flags.view, "open on this view: " + choice_help(kCentreViewNames));
  app.option_defaults()->group(previous_group);
}

void parse_size(const std::string& text, const std::string& flag, int& width, int& height, int min_pixels) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X'))
    throw InputError(flag + ": '" + text + "' is not a size (expected WxH, e.g. 1600x900)");
  if (w < min_pixels || h < min_pixels || w > 16384 || h > 16384)
    throw InputError(flag + ": " + text + " is out of range (" + std::to_string(min_pixels) +
                     " to 16384 pixels each way)");
  width = w;
  height = h;
}

int run_gui(const GuiFlags& flags, const Config& config, BackendChoice backend, bool count_given) {
  // Check the simple flags before any window or context exists.
  if (!flags.theme.empty()) parse_enum(kThemeNames, flags.theme, "--theme");
  if (!flags.palette.empty()) parse_enum(kPaletteNames, flags.palette, "--palette");
  cli::parse_ui_scale(flags.ui_scale);
  if (flags.bench_frames < 0) throw InputError("--bench-frames: must not be negative");
  for (int ranks : flags.bench_gpus) cli::parse_gpu_count(std::to_string(ranks), "--bench-gpus");
  classroom_options(flags.lang, flags.present, flags.present_scale, flags.predict);  // throws on bad values
  set_startup_view(flags.view.empty() ? CentreView::ring : parse_enum(kCentreViewNames, flags.view, "--view"));
  check_initial_values(config);  // a bad --init file is bad input (exit 2), not a failed start
  const bool headless = flags.headless || !flags.screenshot.empty() || !flags.dump_layout.empty() ||
                        flags.bench_frames > 0 || !flags.resize.empty();
  if (headless) return run_headless(flags, config, backend, count_given);
  return run_interactive(flags, config, backend);
}

}  // namespace ringviz::gui
