// The interactive GUI: a GLFW window, and a frame loop that sleeps while nothing moves.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <thread>

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "app/options/config_flags.h"
#include "app/gui/hosts/gui_options.h"
#include "app/gui/hosts/hosts.h"
#include "app/gui/hosts/startup.h"
#include "app/gui/runtime/frame_host.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/runtime/kept_frame.h"
#include "app/gui/runtime/settings.h"
#include "app/gui/teaching/lesson_player_host.h"
#include "app/gui/share/copy_command.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/gui/hosts/state_file.h"
#include "app/platform/glfw_window.h"
#include "app/platform/glx_sub_buffer.h"
#include "core/model/text.h"

namespace ringviz::gui {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kAnimationFrameSeconds = 1.0 / 60.0;
constexpr double kSaveIntervalSeconds = 1.0;
constexpr double kIdleWaitSeconds = 2.0;

// Counts events, so that the loop can tell whether glfwPollEvents() delivered any: the user's
// input (keys, mouse), and the window's own (focus, size), which --state-file leaves out so that
// a test waiting for its key to be taken is not fooled by a resize. Installed before ImGui's
// GLFW backend, which chains to callbacks that exist when it starts.
unsigned long long input_events = 0;
unsigned long long window_events = 0;
// Resizes and exposures: what the window shows, or its back buffer, may have lost pixels.
unsigned long long exposures = 0;
void count_input_events(GLFWwindow* window) {
  glfwSetKeyCallback(window, [](GLFWwindow*, int, int, int, int) { ++input_events; });
  glfwSetCharCallback(window, [](GLFWwindow*, unsigned int) { ++input_events; });
  glfwSetMouseButtonCallback(window, [](GLFWwindow*, int, int, int) { ++input_events; });
  glfwSetCursorPosCallback(window, [](GLFWwindow*, double, double) { ++input_events; });
  glfwSetScrollCallback(window, [](GLFWwindow*, double, double) { ++input_events; });
  glfwSetWindowFocusCallback(window, [](GLFWwindow*, int) { ++window_events; });
  glfwSetFramebufferSizeCallback(window, [](GLFWwindow*, int, int) {
    ++window_events;
    ++exposures;
  });
  glfwSetWindowRefreshCallback(window, [](GLFWwindow*) { ++exposures; });
}

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
                PreferenceSaver& saver, StateFileWriter& state, StateSources sources) {
  // Frames keep their pixels, so only what changed is redrawn: in a framebuffer of their own
  // copied to the back buffer before each swap, or, on a software rasteriser (where that copy
  // costs about what drawing the frame does) with GLX's copy_sub_buffer, in a back buffer that
  // is never swapped, showing only what changed.
  KeptFrame kept;
  platform::GlxSubBufferCopy parts;
  if (platform::software_renderer() && parts.open()) kept.show_parts_with(&parts);
  unsigned long long exposures_seen = exposures;
  Clock::time_point last_frame = Clock::now();
  int settle_frames = kSettleFrames;
  while (!window.should_close()) {
    if (app.animating() || settle_frames > 0) {
      // Input that arrives while frames are still settling earns its own settling frames:
      // ImGui answers some input a frame late (a tab chosen, a button released), and that
      // frame must be drawn before the loop sleeps again.
      const unsigned long long seen = input_events + window_events;
      glfwPollEvents();
      if (input_events + window_events != seen) settle_frames = kSettleFrames;
    } else {
      // Nothing moves: sleep until the user does something. A wait that ends by timing
      // out saw no event, so there is nothing new to draw: back to sleep.
      const Clock::time_point before = Clock::now();
      glfwWaitEventsTimeout(kIdleWaitSeconds);
      if (seconds_since(before) >= kIdleWaitSeconds * 0.98) continue;
      settle_frames = kSettleFrames;
    }
    if (!app.animating()) --settle_frames;

    // FrameHost::build refreshes the fonts for a new scale before it builds the frame.
    if (follow_monitor_scale) app.set_content_scale(window.content_scale());
    const Clock::time_point now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - last_frame).count();
    last_frame = now;
    int width = 0, height = 0;
    window.framebuffer_size(width, height);
    FrameStep step;
    step.animation_seconds = std::min(elapsed, 0.1);  // a stall must not skip whole rounds
    state.before_frame();
    frames.build(app, step, width, height);
    if (exposures != exposures_seen) kept.show_whole_next();
    exposures_seen = exposures;
    kept.draw(frames, app, width, height);
    if (kept.swap_needed()) glfwSwapBuffers(window.handle());
    // After the swap: a test that reads the state and then grabs the screen sees this frame.
    sources.fullscreen = window.fullscreen();
    sources.input_events = input_events;
    sources.frame_path = KeptFrame::path_name(kept.path());
    sources.pixels_redrawn = frames.pixels_redrawn();
    state.after_frame(app, sources, width, height);
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

int run_interactive(const GuiFlags& flags, GuiStart start, BackendChoice backend) {
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
    count_input_events(window->handle());
    FrameHost frames(window->handle());
    Host host;
    host.toggle_fullscreen = [&] { window->toggle_fullscreen(); };
    GuiApp app(start.request, backend, startup.preferences, host, std::move(start.replay), std::move(start.plan));
    InteractiveExtras extras;  // lesson player and record button
    extras.attach(app);
    ClassroomMode classroom(classroom_options(std::string(language_name(startup.language)), flags.present, flags.present_scale, flags.predict));
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
      if (!flags.round.empty())
        app.transport().seek(parse_round(flags.round, app.transport().round_count(), app.memory_stepper_shown()));
      // Every input accepted: the window's status bar shows the CPU fallback; the terminal hears
      // of it only with --verbose, from the session's own backend selection.
      cli::say_backend_notice(app.model().backend_selection_notice(), flags.verbose);
      PreferenceSaver saver(startup.path, app.preferences());
      StateFileWriter state(flags.state_file);
      run_window(*window, frames, app, flags.ui_scale <= 0, saver, state, StateSources{&classroom, &extras});
      saver.save_at_exit(app);
    }
  }
  return status.report();
}

}  // namespace ringviz::gui
