#pragma once
#include <optional>
#include <vector>

namespace ringviz::platform {

// One device that EGL_EXT_device_enumeration lists, as far as choosing between them goes.
struct EglDeviceCandidate {
  int index = 0;                   // position in eglQueryDevicesEXT's list
  std::optional<int> cuda_device;  // EGL_CUDA_DEVICE_NV, where the driver reports one
  bool software = false;           // EGL_MESA_device_software: a CPU rasteriser
};

// The devices worth asking for a context, in the order to ask them: the one that is CUDA device
// `preferred_cuda_device` first (CUDA-OpenGL interop needs the context on the GPU the CUDA
// backend uses), then the others in EGL's order. Software devices are left out: Mesa's
// surfaceless platform, tried next, gives the same rasteriser under the name it always had.
std::vector<int> egl_device_try_order(const std::vector<EglDeviceCandidate>& candidates,
                                      std::optional<int> preferred_cuda_device);

}  // namespace ringviz::platform
