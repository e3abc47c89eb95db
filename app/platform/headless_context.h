#pragma once
#include <memory>
#include <string>

#include "app/platform/egl_surfaceless.h"
#include "app/platform/glfw_window.h"

namespace ringviz::platform {

// A GL 3.3 core context for rendering without showing anything: a hidden GLFW window when a
// display exists (Xvfb included), EGL surfaceless otherwise. Frames go to an OffscreenTarget.
struct HeadlessContext {
  std::unique_ptr<GlfwWindow> window;
  std::unique_ptr<EglSurfaceless> egl;
  std::string describe() const { return window ? window->describe() : egl ? egl->describe() : ""; }
};

// nullptr-free result on success; on failure `error` explains both attempts and what to do.
bool open_headless_context(HeadlessContext& context, std::string& error);

}  // namespace ringviz::platform
