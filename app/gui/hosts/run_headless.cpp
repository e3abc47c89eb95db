// Headless rendering: one frame (or a benchmark of many) into an offscreen framebuffer, with
// a hidden GLFW window's context when there is a display and EGL surfaceless otherwise.
#include <iostream>

#include "app/options/config_flags.h"
#include "app/gui/hosts/frame_benchmark.h"
#include "app/gui/hosts/headless_surface.h"
#include "app/gui/hosts/gui_options.h"
#include "app/gui/hosts/hosts.h"
#include "app/gui/hosts/startup.h"
#include "app/gui/runtime/frame_host.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/runtime/layout_dump.h"
#include "app/gui/share/copy_command.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/platform/gl.h"

namespace ringviz::gui {

namespace {

struct Capture {
  int resize_width = 0;  // 0: no --resize
  int resize_height = 0;
  std::string screenshot;
  std::string dump_layout;
};

// The frame at rest where the timeline stands, drawn until it settles (at --size, then at the
// --resize size), then written out.
HostStatus capture(HeadlessSurface& surface, FrameHost& frames, GuiApp& app, const Capture& wanted) {
  for (int i = 0; i < kSettleFrames; ++i) surface.draw_frame(frames, app, 0.0);
  platform::OffscreenTarget& target = surface.target();
  std::string error;
  if (wanted.resize_width > 0) {
    if (!target.resize(wanted.resize_width, wanted.resize_height, error)) return {HostExit::runtime_failure, error};
    for (int i = 0; i < kSettleFrames; ++i) surface.draw_frame(frames, app, 0.0);
  }
  glFinish();
  if (!wanted.screenshot.empty() &&
      !platform::write_png(wanted.screenshot, target.width(), target.height(), target.read_rgba(), error))
    return {HostExit::runtime_failure, error};
  if (!wanted.dump_layout.empty() &&
      !write_layout_json(app, static_cast<float>(target.width()), static_cast<float>(target.height()),
                         wanted.dump_layout, error))
    return {HostExit::runtime_failure, error};
  return {};
}

}  // namespace

int run_headless(const GuiFlags& flags, GuiStart start, BackendChoice backend, bool count_given) {
  const Config& config = start.request.config;
  require_backend(backend);
  int width = 1600, height = 900;
  Capture wanted;
  if (!flags.size.empty()) parse_size(flags.size, "--size", width, height, kMinWindowPixels);
  if (!flags.resize.empty()) parse_size(flags.resize, "--resize", wanted.resize_width, wanted.resize_height, kMinWindowPixels);
  wanted.screenshot = flags.screenshot;
  wanted.dump_layout = flags.dump_layout;
  StartupPreferences startup = startup_preferences(flags, true);
  // Nobody may be looking at the frame: a damaged --settings file is said on stderr too.
  if (!startup.notice.empty()) std::cerr << "ringviz: " << startup.notice << "\n";

  HeadlessSurface surface;
  HostStatus status = surface.open(width, height, backend);
  if (!status.ok()) return status.report();
  {
    FrameHost frames;
    // The offscreen target keeps its pixels: redraw only what changed (FrameDamage).
    frames.keep_unchanged_pixels(true);
    Host host;
    host.interactive = false;
    host.graphics = surface.describe();
    GuiApp app(start.request, backend, startup.preferences, host, std::move(start.replay), std::move(start.plan));
    ClassroomMode classroom(classroom_options(std::string(language_name(startup.language)), flags.present, flags.present_scale, flags.predict));
    app.add_extension(&classroom);
    classroom.start(app);
    CopyCommand copy_command(&classroom);  // the setup panel's Copy command button and its window
    app.add_extension(&copy_command);
    if (flags.show_command) copy_command.open_at_start();
    app.set_content_scale(flags.ui_scale > 0 ? flags.ui_scale : 1.0f);
    status = frames.start(app);
    if (status.ok()) {
      app.add_notice(startup.notice);
      Playback& timeline = app.transport();
      const double position = parse_round(flags.round, timeline.round_count(), app.memory_stepper_shown());
      // Every input accepted: --verbose says why the session's backend is the CPU, if it is.
      cli::say_backend_notice(app.model().backend_selection_notice(), flags.verbose);
      if (flags.bench_frames > 0) {
        status = run_frame_benchmark(surface, frames, app, config, {flags.bench_frames, flags.bench_gpus, count_given});
      } else {
        if (!flags.round.empty()) timeline.seek(position);  // the Memory tab opens at rest otherwise
        status = capture(surface, frames, app, wanted);
      }
    }
  }
  return status.report();
}

}  // namespace ringviz::gui
