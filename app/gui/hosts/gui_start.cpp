// What every host starts from, the browser's included (app/web/): the request the GUI's flags
// ask for, validated, with its recorded run read. Apart from run_gui (gui_options.cpp), which
// dispatches to the desktop's hosts, so that the browser build links it without them.
#include "app/gui/hosts/gui_options.h"
#include "app/gui/hosts/hosts.h"
#include "app/gui/render/theme.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/options/number_flags.h"
#include "core/request/show_request.h"

namespace ringviz::gui {

GuiStart prepare_gui_start(const GuiFlags& flags, const Config& config) {
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
  return start;
}

}  // namespace ringviz::gui
