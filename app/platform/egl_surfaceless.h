#pragma once
#include <memory>
#include <string>

namespace ringviz::platform {

// An OpenGL 3.3 core context with no window and no X server (Mesa's surfaceless EGL
// platform). Everything is drawn into an OffscreenTarget. Current on the calling thread
// while the object lives.
class EglSurfaceless {
 public:
  // nullptr and `error` set (with what to try instead) when EGL cannot give such a context.
  static std::unique_ptr<EglSurfaceless> create(std::string& error);
  ~EglSurfaceless();
  EglSurfaceless(const EglSurfaceless&) = delete;
  EglSurfaceless& operator=(const EglSurfaceless&) = delete;

  std::string describe() const { return description_; }

 private:
  EglSurfaceless() = default;
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  std::string description_;
};

}  // namespace ringviz::platform
