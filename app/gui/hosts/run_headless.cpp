// Headless rendering: one frame (or a benchmark of many) into an offscreen framebuffer, with
// a hidden GLFW window's context when there is a display and EGL surfaceless otherwise.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include "app/gui/text/fonts.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/hosts/gui_options.h"
#include "app/gui/runtime/layout_dump.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/gui/hosts/startup.h"
#include "app/platform/gl.h"
#include "app/platform/headless_context.h"
#include "app/platform/offscreen_target.h"

namespace ringviz::gui {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kFrameSeconds = 1.0 / 60.0;

// One ImGui frame of `app` into the bound offscreen target. Returns the CPU time spent
// building and submitting it; the GPU may still be working when it returns.
double render_frame(GuiApp& app, const platform::OffscreenTarget& target, double seconds) {
  const Clock::time_point start = Clock::now();
  ImGuiIO& io = ImGui::GetIO();
  // No platform backend here: the display size and the clock are ours to set.
  io.DisplaySize = ImVec2(static_cast<float>(target.width()), static_cast<float>(target.height()));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  // ImGui insists on time passing; the animation clock is separate (`seconds` may be 0).
  io.DeltaTime = static_cast<float>(seconds > 0 ? seconds : kFrameSeconds);
  app.advance(seconds);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  app.build_frame(io.DisplaySize.x, io.DisplaySize.y);
  ImGui::Render();
  target.bind();
  glViewport(0, 0, target.width(), target.height());
  const Rgb clear = view_colours(app.preferences().theme).view_background;
  glClearColor(clear.r / 255.f, clear.g / 255.f, clear.b / 255.f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glFlush();
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t index = std::min(values.size() - 1, static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5));
  return values[index];
}

// Frame times while playing, for rings of several sizes: CPU = building and submitting the
// frame, GPU = the wait in glFinish() that follows (the renderer finishing its work).
int run_benchmark(GuiApp& app, platform::OffscreenTarget& target, const Config& base, int frames,
                  const std::vector<int>& sizes, bool count_given, const std::string& context) {
  std::printf("ringviz frame benchmark: %dx%d, %d frames per size, playing at 1x, %s\n", target.width(),
              target.height(), frames, context.c_str());
  std::printf("%6s %8s  %10s %10s  %10s %10s  %10s %10s\n", "GPUs", "count", "cpu med", "cpu p99", "gpu med",
              "gpu p99", "frame med", "frame p99");
  for (int ranks : sizes) {
    Config config = base;
    config.ranks = ranks;
    if (!count_given) config.count = std::max<std::int64_t>(base.count, ranks);
    config.init.kind = config.init.kind == InitKind::values ? InitKind::seed : config.init.kind;
    if (!app.apply_config(config, app.model().backend_choice())) {
      std::fprintf(stderr, "ringviz: benchmark config with %d GPUs was rejected\n", ranks);
      return 1;
    }
    app.playback().set_loop(true);
    app.playback().go_to_start();
    app.playback().play();
    std::vector<double> cpu, gpu, total;
    for (int i = 0; i < frames + 10; ++i) {
      const double cpu_ms = render_frame(app, target, kFrameSeconds);
      const Clock::time_point start = Clock::now();
      glFinish();
      const double gpu_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (i < 10) continue;  // warm-up: shader compilation, first uploads
      cpu.push_back(cpu_ms);
      gpu.push_back(gpu_ms);
      total.push_back(cpu_ms + gpu_ms);
    }
    std::printf("%6d %8lld  %8.2fms %8.2fms  %8.2fms %8.2fms  %8.2fms %8.2fms\n", ranks,
                static_cast<long long>(config.count), percentile(cpu, 0.5), percentile(cpu, 0.99),
                percentile(gpu, 0.5), percentile(gpu, 0.99), percentile(total, 0.5), percentile(total, 0.99));
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int run_headless(const GuiFlags& flags, const Config& config, BackendChoice backend, bool count_given) {
  int width = 1600, height = 900, resize_width = 0, resize_height = 0;
  if (!flags.size.empty()) parse_size(flags.size, "--size", width, height);
  if (!flags.resize.empty()) parse_size(flags.resize, "--resize", resize_width, resize_height);
  StartupPreferences startup = startup_preferences(flags, true);

  platform::HeadlessContext context;
  std::string error;
  if (!platform::open_headless_context(context, error)) {
    std::cerr << "ringviz: " << error << "\n";
    return 2;
  }
  int exit_code = 0;
  {
    platform::OffscreenTarget target;
    if (!target.resize(width, height, error)) {
      std::cerr << "ringviz: " << error << "\n";
      return 1;
    }
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui_ImplOpenGL3_Init("#version 330 core");
    {
      Host host;
      host.interactive = false;
      GuiApp app(config, backend, startup.preferences, host);
      ClassroomMode classroom(classroom_options(flags.lang, flags.present, flags.present_scale, flags.predict));
      app.add_extension(&classroom);
      classroom.start(app);
      app.set_content_scale(flags.ui_scale > 0 ? flags.ui_scale : 1.0f);
      rebuild_fonts_and_style(app.ui_scale(), app.preferences().theme);
      if (!app.init(error)) {
        std::cerr << "ringviz: " << error << "\n";
        exit_code = 1;
      } else {
        app.add_notice(startup.notice);
        const double position = parse_round(flags.round, app.model().session().round_count());
        if (flags.bench_frames > 0) {
          exit_code = run_benchmark(app, target, config, flags.bench_frames, flags.bench_gpus, count_given,
                                    context.describe());
        } else {
          app.playback().seek(position);
          // A few frames so that ImGui's tables and windows settle (auto sizes, scrolling).
          for (int i = 0; i < 3; ++i) render_frame(app, target, 0.0);
          if (resize_width > 0) {
            if (!target.resize(resize_width, resize_height, error)) {
              std::cerr << "ringviz: " << error << "\n";
              exit_code = 1;
            }
            for (int i = 0; i < 3 && exit_code == 0; ++i) render_frame(app, target, 0.0);
          }
          glFinish();
          if (exit_code == 0 && !flags.screenshot.empty() &&
              !platform::write_png(flags.screenshot, target.width(), target.height(), target.read_rgba(), error)) {
            std::cerr << "ringviz: " << error << "\n";
            exit_code = 1;
          }
          if (exit_code == 0 && !flags.dump_layout.empty() &&
              !write_layout_json(app, static_cast<float>(target.width()), static_cast<float>(target.height()),
                                 flags.dump_layout, error)) {
            std::cerr << "ringviz: " << error << "\n";
            exit_code = 1;
          }
        }
      }
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
  }
  return exit_code;
}

}  // namespace ringviz::gui
