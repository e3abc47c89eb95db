#include "app/gui/hosts/frame_benchmark.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "app/gui/runtime/gui_app.h"
#include "app/platform/gl.h"

namespace ringviz::gui {

namespace {

constexpr double kFrameSeconds = 1.0 / 60.0;  // playing at 1x, 60 frames per second
constexpr int kWarmUpFrames = 10;             // shader compilation, first uploads: not timed

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t index = std::min(values.size() - 1, static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5));
  return values[index];
}

}  // namespace

HostStatus run_frame_benchmark(HeadlessSurface& surface, FrameHost& frames, GuiApp& app, const Config& base,
                               const FrameBenchmark& benchmark) {
  using Clock = std::chrono::steady_clock;
  const platform::OffscreenTarget& target = surface.target();
  std::printf("ringviz frame benchmark: %dx%d, %d frames per size, playing at 1x, %s\n", target.width(),
              target.height(), benchmark.frames, surface.describe().c_str());
  std::printf("%6s %8s  %10s %10s  %10s %10s  %10s %10s\n", "GPUs", "count", "cpu med", "cpu p99", "gpu med",
              "gpu p99", "frame med", "frame p99");
  for (int ranks : benchmark.ranks) {
    Config config = base;
    config.ranks = ranks;
    if (!benchmark.count_given) config.count = std::max<std::int64_t>(base.count, ranks);
    config.init.kind = config.init.kind == InitKind::values ? InitKind::seed : config.init.kind;
    if (!app.apply_config(config, app.model().backend_choice()))
      return {HostExit::runtime_failure, "benchmark config with " + std::to_string(ranks) + " GPUs was rejected"};
    app.playback().set_loop(true);
    app.playback().go_to_start();
    app.playback().play();
    std::vector<double> cpu, gpu, total;
    for (int i = 0; i < benchmark.frames + kWarmUpFrames; ++i) {
      const double cpu_ms = surface.draw_frame(frames, app, kFrameSeconds);
      // GPU = the wait in glFinish(): the renderer finishing the frame's work.
      const Clock::time_point start = Clock::now();
      glFinish();
      const double gpu_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (i < kWarmUpFrames) continue;
      cpu.push_back(cpu_ms);
      gpu.push_back(gpu_ms);
      total.push_back(cpu_ms + gpu_ms);
    }
    std::printf("%6d %8lld  %8.2fms %8.2fms  %8.2fms %8.2fms  %8.2fms %8.2fms\n", ranks,
                static_cast<long long>(config.count), percentile(cpu, 0.5), percentile(cpu, 0.99),
                percentile(gpu, 0.5), percentile(gpu, 0.99), percentile(total, 0.5), percentile(total, 0.99));
    std::fflush(stdout);
  }
  return {};
}

}  // namespace ringviz::gui
