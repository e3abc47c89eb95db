#pragma once
// A headless OpenGL 3.3 core context for the interop test, made through libEGL opened at run
// time: the test binary links no GL library, so it builds and starts on machines without one.
// GL entry points come from eglGetProcAddress.
#include <memory>
#include <string>

namespace ringviz::test {

struct GlFunctions {
  void (*gen_buffers)(int, unsigned int*) = nullptr;
  void (*delete_buffers)(int, const unsigned int*) = nullptr;
  void (*bind_buffer)(unsigned int, unsigned int) = nullptr;
  void (*buffer_data)(unsigned int, long, const void*, unsigned int) = nullptr;
  void (*buffer_sub_data)(unsigned int, long, long, const void*) = nullptr;
  void (*get_buffer_sub_data)(unsigned int, long, long, void*) = nullptr;
  void (*finish)() = nullptr;
  const unsigned char* (*get_string)(unsigned int) = nullptr;
};

class HeadlessGl {
 public:
  // nullptr with `why` set when no such context can be made here.
  static std::unique_ptr<HeadlessGl> create(std::string& why);
  ~HeadlessGl();
  const GlFunctions& gl() const { return gl_; }
  std::string renderer() const;

 private:
  HeadlessGl() = default;
  void* library_ = nullptr;
  void* display_ = nullptr;
  void* context_ = nullptr;
  GlFunctions gl_;
};

// GL enum values used by the test (from the GL specification).
inline constexpr unsigned int kGlArrayBuffer = 0x8892;
inline constexpr unsigned int kGlDynamicDraw = 0x88E8;
inline constexpr unsigned int kGlRenderer = 0x1F01;

}  // namespace ringviz::test
