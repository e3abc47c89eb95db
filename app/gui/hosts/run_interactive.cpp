// The interactive GUI: a GLFW window, and a frame loop that sleeps while nothing moves.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <thread>

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "app/gui/hosts/gui_options.h"
#include "app/gui/hosts/hosts.h"
#include "app/gui/hosts/startup.h"
#include "app/gui/runtime/frame_host.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/runtime/settings.h"
#include "app/gui/teaching/lesson_player_host.h"
#include "app/gui/share/copy_command.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/platform/glfw_window.h"
#include "core/model/text.h"

namespace ringviz::gui {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kAnimationFrameSeconds = 1.0 / 60.0;
constexpr double kSaveIntervalSeconds = 1.0;
constexpr double kIdleWaitSeconds = 2.0;

double seconds_since(Clock::time_point then) { return std::chrono::duration<double>(Clock::now() - then).count(); }

// Writes the preferences soon after they change (not every frame), and once more at the end.
class PreferenceSaver {
 public:
  PreferenceSaver(std::optional<std::string> path, Preferences saved)
      : path_(std::move(path)), saved_(std::move(saved)) {}

  void save_when_due(GuiApp& app) {
    if (!path_ || app.preferences() == saved_ || seconds_since(last_save_) <= kSaveIntervalSeconds) return;
    std::string error;
    if (!save_preferences(*path_, app.preferences(), error)) app.add_notice(error);
    saved_ = app.preferences();
    last_save_ = Clock::now();
  }
  void save_at_exit(const GuiApp& app) {
    std::string error;
    if (path_ && !(app.preferences() == saved_) && !save_preferences(*path_, app.preferences(), error))
      std::cerr << "ringviz: " << escape_for_message(error) << "\n";
  }

 private:
  std::optional<std::string> path_;
  Preferences saved_;
  Clock::time_point last_save_ = Clock::now();
};

void run_window(platform::GlfwWindow& window, FrameHost& frames, GuiApp& app, bool follow_monitor_scale,
                PreferenceSaver& saver) {
  Clock::time_point last_frame = Clock::now();
  int settle_frames = kSettleFrames;
  while (!window.should_close()) {
    if (app.animating() || settle_frames > 0) {
      glfwPollEvents();
    } else {
      // Nothing moves: sleep until the user does something. A wait that ends by timing
      // out saw no event, so there is nothing new to draw: back to sleep.
      const Clock::time_point before = Clock::now();
      glfwWaitEventsTimeout(kIdleWaitSeconds);
      if (seconds_since(before) >= kIdleWaitSeconds * 0.98) continue;
      settle_frames = kSettleFrames;
    }
    if (!app.animating()) --settle_frames;

    if (follow_monitor_scale) app.set_content_scale(window.content_scale());
    frames.keep_fonts_current(app);
    const Clock::time_point now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - last_frame).count();
    last_frame = now;
    int width = 0, height = 0;
    window.framebuffer_size(width, height);
    FrameStep step;
    step.animation_seconds = std::min(elapsed, 0.1);  // a stall must not skip whole rounds
    frames.frame(app, step, width, height);
    glfwSwapBuffers(window.handle());
    // Ctrl+Q quits like the close button (a window manager may offer neither, e.g. under Xvfb).
    if (ImGui::GetIO().KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Q, false))
      glfwSetWindowShouldClose(window.handle(), GLFW_TRUE);

    if (!window.fullscreen()) window.window_size(app.preferences().window_width, app.preferences().window_height);
    saver.save_when_due(app);
    // Without vsync (e.g. under Xvfb) keep animation near 60 frames per second.
    if (app.animating())
      std::this_thread::sleep_until(last_frame + std::chrono::duration_cast<Clock::duration>(
                                                     std::chrono::duration<double>(kAnimationFrameSeconds)));
  }
}

}  // namespace

int run_interactive(const GuiFlags& flags, const Config& config, BackendChoice backend) {
  require_backend(backend);
  StartupPreferences startup = startup_preferences(flags, false);
  platform::WindowOptions window_options;
  window_options.width = startup.preferences.window_width;
  window_options.height = startup.preferences.window_height;
  if (!flags.size.empty()) parse_size(flags.size, "--size", window_options.width, window_options.height, kMinWindowPixels);

  if (!platform::display_available())
    return HostStatus(HostExit::cannot_render,
                      "no display to open a window on (DISPLAY is not set); run `ringviz --headless --screenshot "
                      "out.png` to render the view to a file, or use xvfb-run")
        .report();
  std::string error;
  auto window = platform::GlfwWindow::open(window_options, error);
  if (!window) return HostStatus(HostExit::cannot_render, error).report();
  glfwSwapInterval(1);

  HostStatus status;
  {
    FrameHost frames(window->handle());
    Host host;
    host.toggle_fullscreen = [&] { window->toggle_fullscreen(); };
    GuiApp app(config, backend, startup.preferences, host);
    InteractiveExtras extras;  // lesson player and record button
    extras.attach(app);
    ClassroomMode classroom(classroom_options(flags.lang, flags.present, flags.present_scale, flags.predict));
    app.add_extension(&classroom);
    classroom.on_language_change = [&](Language language) { extras.lessons.set_language(language); };
    classroom.start(app);
    CopyCommand copy_command(&classroom);  // the setup panel's Copy command button and its window
    app.add_extension(&copy_command);
    if (flags.show_command) copy_command.open_at_start();
    app.set_content_scale(flags.ui_scale > 0 ? flags.ui_scale : window->content_scale());
    status = frames.start(app);
    if (status.ok()) {
      app.add_notice(startup.notice);
      if (!flags.round.empty()) app.playback().seek(parse_round(flags.round, app.model().session().round_count()));
      PreferenceSaver saver(startup.path, app.preferences());
      run_window(*window, frames, app, flags.ui_scale <= 0, saver);
      saver.save_at_exit(app);
    }
  }
  return status.report();
}

}  // namespace ringviz::gui
