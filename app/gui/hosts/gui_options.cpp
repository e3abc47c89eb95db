#include "app/gui/hosts/gui_options.h"

#include <string>
#include <iostream>
#include <memory>

#include "app/gui/hosts/hosts.h"
#include "app/cli/config_flags.h"
#include "app/cli/number_flags.h"
#include "app/gui/replay/replay_source.h"
#include "app/gui/views/centre_view.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/gui/render/theme.h"
#include "core/output/output_path.h"
#include "core/input/initial_values.h"
#include "core/algorithms/registry.h"

namespace ringviz::gui {

int run_gui(const GuiFlags& flags, const Config& config, BackendChoice backend, bool count_given) {
  // Check the simple flags before any window or context exists.
  if (!flags.theme.empty()) parse_enum(kThemeNames, flags.theme, "--theme");
  if (!flags.palette.empty()) parse_enum(kPaletteNames, flags.palette, "--palette");
  cli::parse_ui_scale(flags.ui_scale);
  classroom_options(flags.lang, flags.present, flags.present_scale, flags.predict);  // throws on bad values
  set_startup_view(flags.view.empty() ? CentreView::ring : parse_enum(kCentreViewNames, flags.view, "--view"));
  if (!flags.memory_model.empty())
    set_startup_iteration_model(&find_transformer_preset(flags.memory_model, "--memory-model"));
  if (!flags.compare_topology.empty()) set_startup_compare_topology(flags.compare_topology);
  check_initial_values(config);  // a bad --init file is bad input (exit 2), not a failed start
  make_schedule(config);  // so are more pipelined transfers (--slices x --channels) than a schedule may hold
  if (!flags.open.empty()) {
    ReplaySource replay;
    replay.open(flags.open);  // a refused document is bad input: exit 2 with its line and column
    set_startup_replay(std::move(replay));
  }
  const bool headless = flags.headless || !flags.screenshot.empty() || !flags.dump_layout.empty() ||
                        flags.bench_frames > 0 || !flags.resize.empty();
  if (headless && !flags.state_file.empty())
    throw InputError("--state-file describes the interactive window; drop --headless, --screenshot, --dump-layout, "
                     "--resize and --bench-frames, or use --dump-layout for a headless frame");
  if (headless) return run_headless(flags, config, backend, count_given);
  return run_interactive(flags, config, backend);
}

}  // namespace ringviz::gui
