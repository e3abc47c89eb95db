#pragma once
#include <memory>
#include <optional>
#include <string>

#include "app/platform/egl_surfaceless.h"
#include "app/platform/glfw_window.h"

namespace ringviz::platform {

// A GL 3.3 core context for rendering without showing anything: a hidden GLFW window when a
// display exists (Xvfb included), an EGL device or EGL surfaceless otherwise. Frames go to an
// OffscreenTarget.
struct HeadlessContext {
  std::unique_ptr<GlfwWindow> window;
  std::unique_ptr<EglSurfaceless> egl;
  std::string describe() const { return window ? window->describe() : egl ? egl->describe() : ""; }
};

// nullptr-free result on success; on failure `error` explains both attempts and what to do.
// Without a display, the EGL device that is CUDA device `preferred_cuda_device` is tried first.
bool open_headless_context(HeadlessContext& context, std::string& error,
                           std::optional<int> preferred_cuda_device = std::nullopt);

}  // namespace ringviz::platform
