#include "app/platform/headless_context.h"

namespace ringviz::platform {

bool open_headless_context(HeadlessContext& context, std::string& error, std::optional<int> preferred_cuda_device) {
  std::string window_error;
  if (display_available()) {
    WindowOptions options;
    options.width = 64;  // the window is never shown; frames go to the offscreen target
    options.height = 64;
    options.visible = false;
    context.window = GlfwWindow::open(options, window_error);
    if (context.window) return true;
  }
  std::string egl_error;
  context.egl = EglSurfaceless::create(preferred_cuda_device, egl_error);
  if (context.egl) return true;
  error = "no OpenGL context for headless rendering: ";
  if (!window_error.empty()) error += window_error + "; and ";
  else error += "no display (DISPLAY is not set); and ";
  error += egl_error;
  return false;
}

}  // namespace ringviz::platform
