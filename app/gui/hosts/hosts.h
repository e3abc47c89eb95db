#pragma once
// The GUI's hosts. Each owns the process for one run: a GL context, a FrameHost
// (app/gui/runtime/frame_host.h) over it, and the choice of where frames go and when.
// run_gui (gui_options.h) picks one of these two from the command line; `ringviz record`
// (app/cli/record_command.cpp) runs the third, record_headless (recorder_headless.h).
// Each returns its exit code by the rule written at HostStatus.
#include <optional>

#include "app/gui/replay/replay_source.h"
#include "core/request/show_request.h"

namespace ringviz::gui {

struct GuiFlags;  // gui_options.h; not included, since run_gui there dispatches to these

// What run_gui hands a host: the validated request, its collective planned and its recorded
// run, already read.
struct GuiStart {
  ShowRequest request;
  std::optional<CollectivePlan> plan;
  std::optional<ReplaySource> replay;
};

// The request the flags ask for, validated, and its recorded run read (--open): what every host
// starts from, the browser's included. Throws InputError naming the flag or the file position.
GuiStart prepare_gui_start(const GuiFlags& flags, const Config& config);

// A window: frames while something moves, sleep while nothing does; preferences saved as
// they change.
int run_interactive(const GuiFlags& flags, GuiStart start, BackendChoice backend);

// No window: a few frames into an offscreen framebuffer, then --screenshot and --dump-layout
// (after --resize when given), or --bench-frames' timing table instead.
int run_headless(const GuiFlags& flags, GuiStart start, BackendChoice backend, bool count_given);

}  // namespace ringviz::gui
