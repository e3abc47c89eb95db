#include "app/gui/hosts/gui_options.h"

#include <string>
#include <iostream>
#include <memory>

#include "app/gui/hosts/hosts.h"
#include "app/options/config_flags.h"
#include "app/options/number_flags.h"
#include "app/gui/replay/replay_source.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/gui/render/theme.h"
#include "core/output/output_path.h"
#include "core/algorithms/registry.h"
#include "core/request/show_request.h"

namespace ringviz::gui {

int run_gui(const GuiFlags& flags, const Config& config, BackendChoice backend, bool count_given) {
  // Check the simple flags before any window or context exists.
  if (!flags.theme.empty()) parse_enum(kThemeNames, flags.theme, "--theme");
  if (!flags.palette.empty()) parse_enum(kPaletteNames, flags.palette, "--palette");
  cli::parse_ui_scale(flags.ui_scale);
  classroom_options(flags.lang, flags.present, flags.present_scale, flags.predict);  // throws on bad values
  GuiStart start;
  start.request.config = config;
  if (!flags.view.empty()) start.request.view = parse_enum(kCentreViewNames, flags.view, "--view");
  start.request.memory_model = flags.memory_model;
  if (!flags.compare_topology.empty()) start.request.compare_topology = flags.compare_topology;
  start.request.replay = flags.open;
  start.plan.emplace(validate_show_request(start.request));
  if (!start.request.replay.empty()) {
    start.replay.emplace();
    start.replay->open(start.request.replay);  // a refused document is bad input: exit 2 with its line and column
    // A job opens on its timeline, where the user picks the collective to step.
    if (start.replay->job() && flags.view.empty()) start.request.view = CentreView::job;
  }
  const bool headless = flags.headless || !flags.screenshot.empty() || !flags.dump_layout.empty() ||
                        flags.bench_frames > 0 || !flags.resize.empty();
  if (headless && !flags.state_file.empty())
    throw InputError("--state-file describes the interactive window; drop --headless, --screenshot, --dump-layout, "
                     "--resize and --bench-frames, or use --dump-layout for a headless frame");
  if (headless) return run_headless(flags, std::move(start), backend, count_given);
  return run_interactive(flags, std::move(start), backend);
}

}  // namespace ringviz::gui
