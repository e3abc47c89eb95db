// The interactive GUI: a GLFW window, ImGui's GLFW and OpenGL3 backends, and a frame loop
// that sleeps while nothing moves.
#include <chrono>
#include <iostream>
#include <thread>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include "app/gui/text/fonts.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/hosts/gui_options.h"
#include "app/gui/teaching/lesson_player_host.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/gui/runtime/settings.h"
#include "app/gui/hosts/startup.h"
#include "app/platform/gl.h"
#include "app/platform/glfw_window.h"

namespace ringviz::gui {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kAnimationFrameSeconds = 1.0 / 60.0;
constexpr double kSaveIntervalSeconds = 1.0;
constexpr double kIdleWaitSeconds = 2.0;

}  // namespace

int run_interactive(const GuiFlags& flags, const Config& config, BackendChoice backend) {
  StartupPreferences startup = startup_preferences(flags, false);
  Preferences& preferences = startup.preferences;
  platform::WindowOptions window_options;
  window_options.width = preferences.window_width;
  window_options.height = preferences.window_height;
  if (!flags.size.empty()) parse_size(flags.size, "--size", window_options.width, window_options.height);

  std::string error;
  if (!platform::display_available()) {
    std::cerr << "ringviz: no display to open a window on (DISPLAY is not set); run "
                 "`ringviz --headless --screenshot out.png` to render the view to a file, or "
                 "use xvfb-run\n";
    return 2;
  }
  auto window = platform::GlfwWindow::open(window_options, error);
  if (!window) {
    std::cerr << "ringviz: " << error << "\n";
    return 2;
  }
  glfwSwapInterval(1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is fixed; our own settings file keeps preferences
  ImGui_ImplGlfw_InitForOpenGL(window->handle(), true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  int exit_code = 0;
  {
    Host host;
    host.toggle_fullscreen = [&] { window->toggle_fullscreen(); };
    GuiApp app(config, backend, preferences, host);
    InteractiveExtras extras;  // lesson player and record button
    extras.attach(app);
    ClassroomMode classroom(classroom_options(flags.lang, flags.present, flags.present_scale, flags.predict));
    app.add_extension(&classroom);
    classroom.on_language_change = [&](Language language) { extras.lessons.set_language(language); };
    classroom.start(app);
    app.set_content_scale(flags.ui_scale > 0 ? flags.ui_scale : window->content_scale());
    float built_scale = app.ui_scale();
    rebuild_fonts_and_style(built_scale, app.preferences().theme);
    if (!app.init(error)) {
      std::cerr << "ringviz: " << error << "\n";
      exit_code = 1;
    } else {
      app.add_notice(startup.notice);
      if (!flags.round.empty()) app.playback().seek(parse_round(flags.round, app.model().session().round_count()));
      Preferences saved = app.preferences();
      Clock::time_point last_frame = Clock::now(), last_save = last_frame;
      int settle_frames = 3;  // ImGui needs a frame or two after input to settle hover/active
      while (!window->should_close()) {
        if (app.animating() || settle_frames > 0) {
          glfwPollEvents();
        } else {
          // Nothing moves: sleep until the user does something. A wait that ends by timing
          // out saw no event, so there is nothing new to draw: back to sleep.
          const Clock::time_point before = Clock::now();
          glfwWaitEventsTimeout(kIdleWaitSeconds);
          if (std::chrono::duration<double>(Clock::now() - before).count() >= kIdleWaitSeconds * 0.98) continue;
          settle_frames = 3;
        }
        if (!app.animating()) --settle_frames;

        if (flags.ui_scale <= 0) app.set_content_scale(window->content_scale());
        if (app.ui_scale() != built_scale || !fonts_current(app.ui_scale())) {
          built_scale = app.ui_scale();
          rebuild_fonts_and_style(built_scale, app.preferences().theme);
        }
        const Clock::time_point now = Clock::now();
        const double elapsed = std::chrono::duration<double>(now - last_frame).count();
        last_frame = now;
        app.advance(std::min(elapsed, 0.1));  // a stall must not skip whole rounds

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        app.build_frame(io.DisplaySize.x, io.DisplaySize.y);
        ImGui::Render();
        int width = 0, height = 0;
        window->framebuffer_size(width, height);
        glViewport(0, 0, width, height);
        const Rgb clear = view_colours(app.preferences().theme).view_background;
        glClearColor(clear.r / 255.f, clear.g / 255.f, clear.b / 255.f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        app.after_render(width, height);
        glfwSwapBuffers(window->handle());

        // Save preferences soon after they change, not every frame.
        if (!window->fullscreen()) window->window_size(app.preferences().window_width, app.preferences().window_height);
        if (startup.path && !(app.preferences() == saved) &&
            std::chrono::duration<double>(Clock::now() - last_save).count() > kSaveIntervalSeconds) {
          std::string save_error;
          if (!save_preferences(*startup.path, app.preferences(), save_error)) app.add_notice(save_error);
          saved = app.preferences();
          last_save = Clock::now();
        }
        // Without vsync (e.g. under Xvfb) keep animation near 60 frames per second.
        if (app.animating()) {
          const auto frame_end = last_frame + std::chrono::duration_cast<Clock::duration>(
                                                  std::chrono::duration<double>(kAnimationFrameSeconds));
          std::this_thread::sleep_until(frame_end);
        }
      }
      if (startup.path && !(app.preferences() == saved)) {
        std::string save_error;
        if (!save_preferences(*startup.path, app.preferences(), save_error))
          std::cerr << "ringviz: " << save_error << "\n";
      }
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  return exit_code;
}

}  // namespace ringviz::gui
