#include "app/gui/hosts/frame_benchmark.h"

#include <imgui.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "app/gui/runtime/gui_app.h"
#include "app/gui/runtime/kept_frame.h"
#include "app/platform/gl.h"
#include "app/platform/glx_sub_buffer.h"

namespace ringviz::gui {

namespace {

constexpr double kFrameSeconds = 1.0 / 60.0;  // playing at 1x, 60 frames per second
constexpr int kWarmUpFrames = 10;             // shader compilation, first uploads: not timed
constexpr double kBudgetMs = 16.0;            // the frame time the GUI is held to: 60 frames a second (docs/architecture.md, "Frame time")

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t index = std::min(values.size() - 1, static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5));
  return values[index];
}

// CPU time of the whole process (every thread: a software renderer rasterises on its own
// threads). Unlike wall-clock time it does not grow when other programs share the cores, so
// rows measured on a busy machine can still be compared.
double process_cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) * 1e-6;
}

// One row of the table: the frames of one ring size, playing or standing still.
struct RowTimes {
  std::vector<double> build, submit, gpu, total, process_cpu;
  int vertices = 0;       // the most ImGui vertices in one frame
  int draw_commands = 0;  // the most ImGui draw commands (draw calls and callbacks) in one frame
  double redrawn = 0;     // the share of the frame's pixels redrawn, over all frames
};

void count_draw_data(RowTimes& row) {
  const ImDrawData* data = ImGui::GetDrawData();
  if (data == nullptr) return;
  int commands = 0;
  for (int i = 0; i < data->CmdListsCount; ++i) commands += data->CmdLists[i]->CmdBuffer.Size;
  row.vertices = std::max(row.vertices, data->TotalVtxCount);
  row.draw_commands = std::max(row.draw_commands, commands);
}

// Where a row's frames go: the headless target, or the hidden window as the interactive
// window draws (every pixel, or through a KeptFrame), swapped.
struct FramePath {
  bool window = false;
  KeptFrame* kept = nullptr;
};

RowTimes time_frames(HeadlessSurface& surface, FrameHost& frames, GuiApp& app, int count, double seconds,
                     FramePath path = {}) {
  using Clock = std::chrono::steady_clock;
  RowTimes row;
  for (int i = 0; i < count + kWarmUpFrames; ++i) {
    const double cpu_before = process_cpu_ms();
    const HeadlessSurface::FrameCpuTime cpu = path.window ? surface.draw_window_frame(frames, app, seconds, path.kept)
                                                          : surface.draw_frame(frames, app, seconds);
    // GPU = the wait in glFinish(): the renderer finishing the frame's work.
    const Clock::time_point start = Clock::now();
    glFinish();
    const double gpu_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    const double cpu_used = process_cpu_ms() - cpu_before;
    if (i < kWarmUpFrames) continue;
    row.process_cpu.push_back(cpu_used);
    row.redrawn += static_cast<double>(frames.pixels_redrawn()) /
                   (static_cast<double>(surface.target().width()) * surface.target().height() * count);
    row.build.push_back(cpu.build_ms);
    row.submit.push_back(cpu.submit_ms);
    row.gpu.push_back(gpu_ms);
    row.total.push_back(cpu.total_ms() + gpu_ms);
    count_draw_data(row);
  }
  return row;
}

void print_row(int ranks, std::int64_t count, const char* state, const RowTimes& row) {
  const double p99 = percentile(row.total, 0.99);
  std::printf("%5d %7lld %-8s %7.2f %7.2f  %7.2f %7.2f  %7.2f %7.2f  %7.2f %7.2f %7.2f%s  %7.2f %7.2f %8d %6d %5.0f%%\n", ranks,
              static_cast<long long>(count), state, percentile(row.build, 0.5), percentile(row.build, 0.99),
              percentile(row.submit, 0.5), percentile(row.submit, 0.99), percentile(row.gpu, 0.5),
              percentile(row.gpu, 0.99), percentile(row.total, 0.5), percentile(row.total, 0.95), p99,
              p99 > kBudgetMs ? "!" : " ", percentile(row.process_cpu, 0.5), percentile(row.process_cpu, 0.99), row.vertices, row.draw_commands,
              100.0 * row.redrawn);
  std::fflush(stdout);
}

}  // namespace

HostStatus run_frame_benchmark(HeadlessSurface& surface, FrameHost& frames, GuiApp& app, const Config& base,
                               const FrameBenchmark& benchmark) {
  const platform::OffscreenTarget& target = surface.target();
  std::printf("ringviz frame benchmark: %dx%d, %d frames per row, %s\n", target.width(), target.height(),
              benchmark.frames, surface.describe().c_str());
  std::printf("milliseconds; build = ImGui's frame (panels, views), submit = GL draw calls, gpu = glFinish; "
              "playing = at 1x, redrawing the rectangles that changed; redraw = the same, every pixel redrawn (the baseline, "
              "as before FrameDamage); paused = standing still; window = playing as the interactive window drew before, "
              "every pixel into the hidden window's back buffer, swapped (the window's baseline); win-kept = playing as it "
              "draws on a GPU, the changed rectangles into a kept framebuffer copied to the back buffer, swapped; "
              "win-part = playing as it draws on a software rasteriser, the changed rectangles into a back buffer never "
              "swapped and only they copied to the window (GLX_MESA_copy_sub_buffer); "
              "pixels = the share redrawn; ! = p99 over %.0f ms\n",
              kBudgetMs);
  // The window rows need the hidden window's own framebuffer (not EGL's).
  const bool window_rows = surface.open_window_framebuffer();
  if (!window_rows) std::printf("(no window rows: the context has no window of the frame's size, e.g. EGL without a display)\n");
  platform::GlxSubBufferCopy parts;
  if (window_rows && !parts.open()) std::printf("(no win-part row: this GLX has no GLX_MESA_copy_sub_buffer)\n");
  std::printf("%5s %7s %-8s %7s %7s  %7s %7s  %7s %7s  %7s %7s %7s   %7s %7s  %8s %6s %6s\n", "GPUs", "count", "state", "build",
              "p99", "submit", "p99", "gpu", "p99", "frame", "p95", "p99", "cpu", "p99", "vertices", "draws", "pixels");
  for (int ranks : benchmark.ranks) {
    Config config = base;
    config.ranks = ranks;
    if (!benchmark.count_given) config.count = std::max<std::int64_t>(base.count, ranks);
    config.init.kind = config.init.kind == InitKind::values ? InitKind::seed : config.init.kind;
    if (!app.apply_config(config, app.model().backend_choice()))
      return {HostExit::runtime_failure, "benchmark config with " + std::to_string(ranks) + " GPUs was rejected"};
    // The baseline: halfway through the first round, standing still (packets on their arrows).
    app.playback().set_loop(true);
    app.playback().go_to_start();
    app.playback().pause();
    app.playback().seek(0.5);
    print_row(ranks, config.count, "paused", time_frames(surface, frames, app, benchmark.frames, 0.0));
    // The same frames twice from the start: every pixel redrawn, then only what changed.
    for (const bool keep : {false, true}) {
      frames.keep_unchanged_pixels(keep);
      app.playback().go_to_start();
      app.playback().play();
      print_row(ranks, config.count, keep ? "playing" : "redraw",
                time_frames(surface, frames, app, benchmark.frames, kFrameSeconds));
    }
    if (!window_rows) continue;
    // The window as it drew before (every pixel), through a kept target, and showing parts of
    // a back buffer never swapped (where GLX offers that), each from the start.
    KeptFrame kept_target, kept_parts;
    kept_parts.show_parts_with(&parts);
    struct WindowRow {
      const char* name;
      KeptFrame* kept;
    };
    for (const WindowRow& row : {WindowRow{"window", nullptr}, WindowRow{"win-kept", &kept_target},
                                 WindowRow{"win-part", parts.is_open() ? &kept_parts : nullptr}}) {
      if (row.kept == nullptr && row.name != std::string("window")) continue;
      frames.keep_unchanged_pixels(false);  // KeptFrame turns it on for its own pixels
      app.playback().go_to_start();
      app.playback().play();
      print_row(ranks, config.count, row.name,
                time_frames(surface, frames, app, benchmark.frames, kFrameSeconds, {true, row.kept}));
    }
    // Back to the headless target, whose pixels the damage no longer describes: drawn whole next.
    frames.keep_unchanged_pixels(true);
  }
  return {};
}

}  // namespace ringviz::gui
