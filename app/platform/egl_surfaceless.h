#pragma once
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace ringviz::platform {

// An OpenGL 3.3 core context with no window and no X server: on an EGL device (the NVIDIA
// driver's way; EGL_EXT_platform_device) when one gives such a context, else on Mesa's
// surfaceless platform. Everything is drawn into an OffscreenTarget. Current on the calling
// thread while the object lives.
class EglSurfaceless {
 public:
  // nullptr and `error` set (with what to try instead) when EGL cannot give such a context.
  // `preferred_cuda_device`: the EGL device that is this CUDA device is tried first.
  static std::unique_ptr<EglSurfaceless> create(std::optional<int> preferred_cuda_device, std::string& error);
  ~EglSurfaceless();
  EglSurfaceless(const EglSurfaceless&) = delete;
  EglSurfaceless& operator=(const EglSurfaceless&) = delete;

  // "EGL device 0 (NVIDIA H200/PCIe/SSE2)", "EGL surfaceless (llvmpipe (LLVM 15.0.6, 256 bits))".
  std::string describe() const { return description_; }

 private:
  EglSurfaceless(void* display, void* context, void* pbuffer, std::string description)
      : display_(display), context_(context), pbuffer_(pbuffer), description_(std::move(description)) {}
  // nullptr when no device gave a context; `error` then says why each one that was tried failed.
  static std::unique_ptr<EglSurfaceless> open_on_device(std::optional<int> preferred_cuda_device,
                                                        const char* client_extensions, std::string& error);
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  void* pbuffer_ = nullptr;  // EGLSurface, only where surfaceless contexts are missing
  std::string description_;
};

}  // namespace ringviz::platform
