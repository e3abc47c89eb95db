#include "app/gui/hosts/headless_surface.h"

#include <chrono>

#include "app/platform/gl.h"

namespace ringviz::gui {

HostStatus HeadlessSurface::open(int width, int height, BackendChoice backend) {
  std::string error;
  // Rank 0 of the CUDA backend lives on CUDA device 0; interop wants the GL context there too.
  const std::optional<int> cuda_device = backend == BackendChoice::cpu ? std::nullopt : std::optional<int>(0);
  if (!platform::open_headless_context(context_, error, cuda_device)) return {HostExit::cannot_render, error};
  if (!target_.resize(width, height, error)) return {HostExit::runtime_failure, error};
  return {};
}

HeadlessSurface::FrameCpuTime HeadlessSurface::draw_frame(FrameHost& frames, GuiApp& app, double seconds) {
  using Clock = std::chrono::steady_clock;
  using Ms = std::chrono::duration<double, std::milli>;
  const Clock::time_point start = Clock::now();
  FrameStep step;
  step.animation_seconds = seconds;
  if (seconds > 0) step.imgui_seconds = seconds;  // else ImGui's clock keeps its default step
  frames.build(app, step, target_.width(), target_.height());
  const Clock::time_point built = Clock::now();
  target_.bind();
  frames.draw(app, target_.width(), target_.height());
  glFlush();
  return {Ms(built - start).count(), Ms(Clock::now() - built).count()};
}

}  // namespace ringviz::gui
