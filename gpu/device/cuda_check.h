#pragma once
// Internal to gpu/: turns cudaError_t values into CudaError with a message a user can act on.
#include <string>
#include <string_view>
#include <type_traits>

#include <cuda_runtime_api.h>

#include "gpu/device/cuda_error.h"

namespace ringviz::gpu {

// "<cudaGetErrorString> (<cudaGetErrorName>)" plus, for the failures a user can do something
// about (old driver, no device, out of memory, a faulted kernel), what to do.
std::string describe_cuda_error(cudaError_t status);

// Errors after which the CUDA context is unusable until the process ends (a kernel fault).
bool is_sticky_cuda_error(cudaError_t status);

// Throws CudaError("CUDA: <what>: <description>"). The runtime's last-error slot is cleared
// first, so a recoverable failure (out of memory) does not resurface at the next unrelated
// call.
[[noreturn]] void throw_cuda_error(cudaError_t status, std::string_view what);

// Throws as above unless status is cudaSuccess.
inline void check_cuda(cudaError_t status, std::string_view what) {
  if (status != cudaSuccess) throw_cuda_error(status, what);
}

// The same with the text built by `describe()` (returning std::string), which runs only when
// the call failed: the backend checks every copy and launch of every chunk, and formatting a
// message for each one that succeeded would cost more than some of the copies.
template <class Describe, std::enable_if_t<std::is_invocable_r_v<std::string, Describe&>, int> = 0>
void check_cuda(cudaError_t status, Describe&& describe) {
  if (status != cudaSuccess) throw_cuda_error(status, describe());
}

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

// A DeviceGuard for destructors: it never throws and leaves no error behind when a device
// cannot be selected (a lost context is reclaimed by the driver when the process ends).
class QuietDeviceGuard {
 public:
  explicit QuietDeviceGuard(int device) noexcept;
  ~QuietDeviceGuard();
  QuietDeviceGuard(const QuietDeviceGuard&) = delete;
  QuietDeviceGuard& operator=(const QuietDeviceGuard&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace ringviz::gpu
