#include "app/platform/glfw_window.h"

#include <cstdlib>

#include <GLFW/glfw3.h>

#include "app/platform/gl.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/html5.h>
#endif

namespace ringviz::platform {

namespace {

// GLFW reports errors through a callback; keep the last one so that open() can say why.
std::string& last_glfw_error() {
  static std::string text;
  return text;
}

void remember_glfw_error(int code, const char* description) {
  last_glfw_error() = std::string(description ? description : "unknown") + " (GLFW error " +
                      std::to_string(code) + ")";
}

#ifndef __EMSCRIPTEN__
bool env_set(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0';
}
#endif

}  // namespace

#ifdef __EMSCRIPTEN__
bool display_available() { return true; }  // the page's canvas
#else
bool display_available() { return env_set("DISPLAY") || env_set("WAYLAND_DISPLAY"); }
#endif

std::unique_ptr<GlfwWindow> GlfwWindow::open(const WindowOptions& options, std::string& error) {
  glfwSetErrorCallback(remember_glfw_error);
  if (!glfwInit()) {
    error = "cannot open a window: " + last_glfw_error() +
            "; check that DISPLAY names a running X server, or use --headless";
    return nullptr;
  }
  glfwDefaultWindowHints();
#ifndef __EMSCRIPTEN__
  // In the browser the window is the page's canvas and its context WebGL2 (the link flags).
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  // Window size is given in screen coordinates; on HiDPI monitors scale it with the monitor.
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
#endif
  GLFWwindow* window =
      glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (window == nullptr) {
    error = "cannot create an OpenGL 3.3 core window: " + last_glfw_error() +
            "; update the graphics driver, or use --headless";
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  std::unique_ptr<GlfwWindow> result(new GlfwWindow());
  result->window_ = window;
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  result->description_ = std::string(options.visible ? "GLFW window, " : "hidden GLFW window, ") +
                         (renderer ? renderer : "unknown renderer");
  return result;
}

GlfwWindow::~GlfwWindow() {
  if (window_ != nullptr) glfwDestroyWindow(window_);
  glfwTerminate();
}

float GlfwWindow::content_scale() const {
#ifdef __EMSCRIPTEN__
  // Emscripten's GLFW has no content scale; the canvas is sized in device pixels (web/shell.html).
  const double ratio = emscripten_get_device_pixel_ratio();
  return ratio > 0 ? static_cast<float>(ratio) : 1.0f;
#else
  float x = 1, y = 1;
  glfwGetWindowContentScale(window_, &x, &y);
  return x > 0 ? x : 1.0f;
#endif
}

void GlfwWindow::framebuffer_size(int& width, int& height) const {
  glfwGetFramebufferSize(window_, &width, &height);
}

void GlfwWindow::window_size(int& width, int& height) const {
  glfwGetWindowSize(window_, &width, &height);
}

bool GlfwWindow::should_close() const { return glfwWindowShouldClose(window_) != 0; }

void GlfwWindow::toggle_fullscreen() {
  if (!fullscreen_) {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (mode == nullptr) return;  // no monitor to fill (e.g. some virtual displays)
    glfwGetWindowPos(window_, &windowed_x_, &windowed_y_);
    glfwGetWindowSize(window_, &windowed_width_, &windowed_height_);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    fullscreen_ = true;
  } else {
    glfwSetWindowMonitor(window_, nullptr, windowed_x_, windowed_y_, windowed_width_,
                         windowed_height_, GLFW_DONT_CARE);
    fullscreen_ = false;
  }
}

}  // namespace ringviz::platform
