#pragma once
#include <memory>
#include <string>

struct GLFWwindow;

namespace ringviz::platform {

// True when an X11 or Wayland display is named in the environment, i.e. GLFW may succeed.
bool display_available();

struct WindowOptions {
  int width = 1600;
  int height = 900;
  bool visible = true;  // false: a hidden window whose context renders into an offscreen target
  std::string title = "ringviz";
};

// A GLFW window with an OpenGL 3.3 core context, current on the calling thread while it lives.
class GlfwWindow {
 public:
  // nullptr and `error` set (saying what to do) when no window can be opened.
  static std::unique_ptr<GlfwWindow> open(const WindowOptions& options, std::string& error);
  ~GlfwWindow();
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;

  GLFWwindow* handle() const { return window_; }
  // The monitor's content scale (1 on a 96-dpi screen, 2 on a typical HiDPI one).
  float content_scale() const;
  void framebuffer_size(int& width, int& height) const;
  void window_size(int& width, int& height) const;
  bool should_close() const;
  void toggle_fullscreen();
  bool fullscreen() const { return fullscreen_; }
  std::string describe() const { return description_; }

 private:
  GlfwWindow() = default;
  GLFWwindow* window_ = nullptr;
  bool fullscreen_ = false;
  int windowed_x_ = 0, windowed_y_ = 0, windowed_width_ = 0, windowed_height_ = 0;
  std::string description_;
};

}  // namespace ringviz::platform
