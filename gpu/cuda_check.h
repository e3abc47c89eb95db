#pragma once
// Internal to gpu/: turns cudaError_t values into CudaError with a message a user can act on.
#include <string>
#include <string_view>

#include <cuda_runtime_api.h>

#include "gpu/cuda_error.h"

namespace ringviz::gpu {

// "<cudaGetErrorString> (<cudaGetErrorName>)" plus, for the failures a user can do something
// about (old driver, no device, out of memory, a faulted kernel), what to do.
std::string describe_cuda_error(cudaError_t status);

// Errors after which the CUDA context is unusable until the process ends (a kernel fault).
bool is_sticky_cuda_error(cudaError_t status);

// Throws CudaError("CUDA: <what>: <description>") unless status is cudaSuccess. The runtime's
// last-error slot is cleared first, so a recoverable failure (out of memory) does not
// resurface at the next unrelated call.
void check_cuda(cudaError_t status, std::string_view what);

// Restores the calling thread's current device when it goes out of scope: the backend touches
// several devices, and the GUI's GL interop expects its own device to stay current.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace ringviz::gpu
