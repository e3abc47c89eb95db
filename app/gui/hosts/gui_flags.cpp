// The GUI's command-line flags (add_gui_flags) and the size parser, apart from run_gui() so
// that tests can parse a command line exactly as ringviz does without the hosts behind it
// (tests/gui/test_view_command.cpp parses the Copy command's output).
#include "app/gui/hosts/gui_options.h"

#include <memory>
#include <string>

#include "app/options/config_flags.h"
#include "app/options/number_flags.h"
#include "app/gui/render/theme.h"
#include "app/gui/views/centre_view.h"
#include "core/output/output_path.h"

namespace ringviz::gui {

namespace {

using cli::add_checked_option;

// Each ring size is timed in three rows of this many frames (paused, redraw, playing): 10000
// is minutes already.
constexpr int kMaxBenchFrames = 10000;
constexpr std::size_t kMaxBenchRingSizes = 16;

// An empty value would read as "not given" and be silently ignored.
std::function<std::string(const std::string&)> non_empty(std::string flag, std::string expected) {
  return [flag = std::move(flag), expected = std::move(expected)](const std::string& text) {
    if (text.empty()) throw InputError(flag + ": '' is empty (expected " + expected + ")");
    return text;
  };
}

// --round is checked against the collective's length once it is known (startup.h); here only
// its spelling, so that " 2" or "0x2" is refused rather than read by strtod.
std::string plain_round(const std::string& text) {
  if (!cli::is_plain_decimal(text))
    throw InputError("--round: '" + text + "' is not a number (e.g. 2, or 2.5 for halfway through round 3)");
  return text;
}

}  // namespace

void add_gui_flags(CLI::App& app, GuiFlags& flags) {
  // Everything below is listed under "GUI" in --help; options added later keep their group.
  const std::string previous_group = app.option_defaults()->get_group();
  app.option_defaults()->group("GUI");
  app.add_flag("--headless", flags.headless,
               "render without showing a window (hidden GLFW window, or EGL without a display)");
  add_checked_option<std::string>(app, "--size", flags.size, non_empty("--size", "WxH, e.g. 1600x900"),
                                  "window or image size, WxH (default 1600x900)", "TEXT");
  add_checked_option<std::string>(
      app, "--round", flags.round, plain_round,
      "open at this point of the timeline: K = after round K, K.5 = halfway through round K+1", "TEXT");
  // Output paths are checked as they are parsed, before any rendering (core/output/output_path.h).
  app.add_option("--screenshot", flags.screenshot, "headless: write the frame to this PNG file")
      ->each([](const std::string& path) { check_output_file(path, "--screenshot", ".png"); });
  app.add_option("--dump-layout", flags.dump_layout,
                 "headless: write every GPU box and cell rectangle to this JSON file")
      ->each([](const std::string& path) { check_output_file(path, "--dump-layout", ".json"); });
  app.add_option("--state-file", flags.state_file,
                 "for tests: the window rewrites this JSON file with its state after every frame")
      ->each([](const std::string& path) { check_output_file(path, "--state-file", ".json"); });
  add_checked_option<std::string>(app, "--resize", flags.resize, non_empty("--resize", "WxH, e.g. 1600x900"),
                                  "headless: draw at --size, then resize to WxH before capturing", "TEXT");
  add_checked_option<int>(
      app, "--bench-frames", flags.bench_frames,
      [](const std::string& text) {
        return static_cast<int>(cli::parse_number_in_range(text, "--bench-frames", 1, kMaxBenchFrames));
      },
      "headless: time this many frames (1-10000) paused, playing with every pixel redrawn, and playing, "
      "for each ring size of --bench-gpus",
      "INT");
  // Called once per occurrence (trigger_on_parse), so a second --bench-gpus is refused like any
  // other repeated flag instead of silently extending the list.
  auto occurrences = std::make_shared<int>(0);
  app.add_option_function<std::vector<std::string>>(
         "--bench-gpus",
         [&flags, occurrences](const std::vector<std::string>& texts) {
           if (++*occurrences > 1)
             throw InputError("--bench-gpus: given " + std::to_string(*occurrences) +
                              " times; give it once, with every ring size (4,16 or 4 16)");
           if (texts.size() > kMaxBenchRingSizes)
             throw InputError("--bench-gpus: " + std::to_string(texts.size()) +
                              " ring sizes is too many (at most 16)");
           flags.bench_gpus.clear();
           for (const std::string& text : texts) flags.bench_gpus.push_back(cli::parse_gpu_count(text, "--bench-gpus"));
         },
         "the ring sizes --bench-frames times, 1-256 each, at most 16 (default 4 16 64 256)")
      ->type_name("INT ...")
      ->delimiter(',')
      ->trigger_on_parse();
  app.add_option("--theme", flags.theme, choice_help(kThemeNames));
  app.add_option("--palette", flags.palette, choice_help(kPaletteNames));
  add_checked_option<std::string>(app, "--settings", flags.settings,
                                  non_empty("--settings", "a settings file, or 'off'"),
                                  "settings file to use, or 'off' (default ~/.config/ringviz/settings.json; "
                                  "headless runs use none unless given)",
                                  "TEXT");
  add_checked_option<float>(
      app, "--ui-scale", flags.ui_scale, [](const std::string& text) { return cli::parse_ui_scale_text(text); },
      "scale text and widgets, 0.5-4 (default: the monitor's)", "FLOAT");
  app.add_flag("--present", flags.present,
               "start in presentation mode: large text, high contrast, no setup panel (key P)");
  add_checked_option<float>(
      app, "--present-scale", flags.present_scale,
      [](const std::string& text) {
        return static_cast<float>(cli::parse_real_in_range(text, "--present-scale", 1.5, 3, "1.5 to 3"));
      },
      "presentation text size, 1.5 to 3 (default 2)", "FLOAT");
  app.add_flag("--predict", flags.predict, "start in predict mode: guess each round before it plays (key G)");
  app.add_option("--view", flags.view, "open on this view: " + choice_help(kCentreViewNames));
  app.add_option("--compare-topology", flags.compare_topology,
                 "the Compare tab's topology: star (of the link selector), nvswitch, ring, pcie, nodes or nodes-rail; "
                 "its GPU count follows --gpus");
  app.add_option("--open", flags.open,
                 "replay a ringviz.trace/1 document (a `ringviz capture`, measured round by round, or `trace "
                 "--format json` output), or open a ringviz.job/1 job (`ringviz job import`) on the Job view");
  app.add_option("--memory-model", flags.memory_model,
                 "the Memory tab opens on this transformer's whole iteration: llama2-7b, llama3-8b, llama3-70b, "
                 "gpt3-175b");
  app.add_flag("--show-command", flags.show_command,
               "open the Copy command window, which shows the command line of this view (for screenshots)");
  app.option_defaults()->group(previous_group);
}

void parse_size(const std::string& text, const std::string& flag, int& width, int& height, int min_pixels) {
  // Digits, a lower-case x, digits: nothing else, so no space on either side of either number.
  const std::size_t x = text.find('x');
  const auto digits = [](const std::string& part) {
    return !part.empty() && part.size() <= 9 && part.find_first_not_of("0123456789") == std::string::npos;
  };
  if (x == std::string::npos || !digits(text.substr(0, x)) || !digits(text.substr(x + 1)))
    throw InputError(flag + ": '" + text + "' is not a size (expected WxH, e.g. 1600x900)");
  const int w = std::stoi(text.substr(0, x));
  const int h = std::stoi(text.substr(x + 1));
  if (w < min_pixels || h < min_pixels || w > 16384 || h > 16384)
    throw InputError(flag + ": " + text + " is out of range (" + std::to_string(min_pixels) +
                     " to 16384 pixels each way)");
  width = w;
  height = h;
}

}  // namespace ringviz::gui
