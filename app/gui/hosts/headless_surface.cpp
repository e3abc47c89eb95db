#include "app/gui/hosts/headless_surface.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "app/gui/runtime/kept_frame.h"
#include "app/platform/gl.h"
// After gl.h, and without GL headers of its own: gl.h must be the one that declares the
// extension functions.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace ringviz::gui {

HostStatus HeadlessSurface::open(int width, int height, BackendChoice backend) {
  std::string error;
  // Rank 0 of the CUDA backend lives on CUDA device 0; interop wants the GL context there too.
  const std::optional<int> cuda_device = backend == BackendChoice::cpu ? std::nullopt : std::optional<int>(0);
  if (!platform::open_headless_context(context_, error, cuda_device)) return {HostExit::cannot_render, error};
  // The driver's limits, checked before allocating: a size past them is this machine's limit
  // (exit 2 with the largest size it can draw), not a failure halfway through.
  GLint max_renderbuffer = 0;
  GLint max_viewport[2] = {0, 0};
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_renderbuffer);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, max_viewport);
  const int max_w = std::min<int>(max_renderbuffer, max_viewport[0]);
  const int max_h = std::min<int>(max_renderbuffer, max_viewport[1]);
  if (max_w > 0 && max_h > 0 && (width > max_w || height > max_h))
    return {HostExit::cannot_render, "--size: " + std::to_string(width) + "x" + std::to_string(height) +
                                         " is larger than this OpenGL renderer can draw (at most " +
                                         std::to_string(max_w) + "x" + std::to_string(max_h) +
                                         "); choose a smaller --size, e.g. 3840x2160 or 1920x1080"};
  if (!target_.resize(width, height, error)) return {HostExit::runtime_failure, error};
  return {};
}

FrameStep HeadlessSurface::step_for(double seconds) const {
  FrameStep step;
  step.animation_seconds = seconds;
  if (seconds > 0) step.imgui_seconds = seconds;  // else ImGui's clock keeps its default step
  return step;
}

HeadlessSurface::FrameCpuTime HeadlessSurface::draw_frame(FrameHost& frames, GuiApp& app, double seconds) {
  using Clock = std::chrono::steady_clock;
  using Ms = std::chrono::duration<double, std::milli>;
  const Clock::time_point start = Clock::now();
  frames.build(app, step_for(seconds), target_.width(), target_.height());
  const Clock::time_point built = Clock::now();
  target_.bind();
  frames.draw(app, target_.width(), target_.height());
  glFlush();
  return {Ms(built - start).count(), Ms(Clock::now() - built).count()};
}

bool HeadlessSurface::open_window_framebuffer() {
  if (!context_.window) return false;
  GLFWwindow* window = context_.window->handle();
  glfwSetWindowSize(window, target_.width(), target_.height());
  // Time the work, not a display's refresh: the swap must not wait for one.
  glfwSwapInterval(0);
  int width = 0, height = 0;
  context_.window->framebuffer_size(width, height);
  // A window manager or a scaled monitor may give the window another size; frames of another
  // size than the target's would not compare with its rows.
  return width == target_.width() && height == target_.height();
}

HeadlessSurface::FrameCpuTime HeadlessSurface::draw_window_frame(FrameHost& frames, GuiApp& app, double seconds,
                                                                 KeptFrame* kept) {
  using Clock = std::chrono::steady_clock;
  using Ms = std::chrono::duration<double, std::milli>;
  const Clock::time_point start = Clock::now();
  frames.build(app, step_for(seconds), target_.width(), target_.height());
  const Clock::time_point built = Clock::now();
  if (kept != nullptr) {
    kept->draw(frames, app, target_.width(), target_.height());
  } else {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    frames.draw(app, target_.width(), target_.height());
  }
  if (kept == nullptr || kept->swap_needed()) glfwSwapBuffers(context_.window->handle());
  return {Ms(built - start).count(), Ms(Clock::now() - built).count()};
}

}  // namespace ringviz::gui
