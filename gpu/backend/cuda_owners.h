#pragma once
// Internal to gpu/: owners of CUDA objects (streams, events, device memory, graphs). Each
// remembers the device it was made on and releases its object there when it goes away, so
// no code path (an exception halfway through setting up eight GPUs included) frees by hand.
// Releasing never throws and leaves no error in the runtime's last-error slot for the next
// kernel launch to report as its own.
#include <cstddef>
#include <cstdint>
#include <utility>

#include <cuda_runtime_api.h>

#include "gpu/device/cuda_check.h"

namespace ringviz::gpu {

// One handle, released with `Release` on the device it was made on.
template <class Handle, cudaError_t (*Release)(Handle)>
class CudaOwner {
 public:
  CudaOwner() = default;
  // Takes over `handle`, made on CUDA device `device`.
  CudaOwner(int device, Handle handle) : device_(device), handle_(handle) {}
  CudaOwner(CudaOwner&& other) noexcept
      : device_(other.device_), handle_(std::exchange(other.handle_, nullptr)) {}
  CudaOwner& operator=(CudaOwner&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = other.device_;
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  CudaOwner(const CudaOwner&) = delete;
  CudaOwner& operator=(const CudaOwner&) = delete;
  ~CudaOwner() { reset(); }

  Handle get() const { return handle_; }
  int device() const { return device_; }
  explicit operator bool() const { return handle_ != nullptr; }

  void reset() noexcept {
    if (!handle_) return;
    QuietDeviceGuard guard(device_);
    if (Release(handle_) != cudaSuccess) cudaGetLastError();
    handle_ = nullptr;
  }

 private:
  int device_ = -1;
  Handle handle_ = nullptr;
};

using CudaGraph = CudaOwner<cudaGraph_t, &cudaGraphDestroy>;
using CudaGraphExec = CudaOwner<cudaGraphExec_t, &cudaGraphExecDestroy>;

class CudaStream : public CudaOwner<cudaStream_t, &cudaStreamDestroy> {
 public:
  using CudaOwner::CudaOwner;
  // A stream that does not synchronise with the legacy default stream, on `device`, which
  // must be current. `what` is a check_cuda message (text or a function that builds it).
  template <class What>
  static CudaStream create_non_blocking(int device, What&& what) {
    cudaStream_t stream = nullptr;
    check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), std::forward<What>(what));
    return CudaStream(device, stream);
  }
};

enum class EventTiming { timed, untimed };

class CudaEvent : public CudaOwner<cudaEvent_t, &cudaEventDestroy> {
 public:
  using CudaOwner::CudaOwner;
  // An event on `device`, which must be current; untimed events are cheaper to record and
  // wait for.
  template <class What>
  static CudaEvent create(int device, EventTiming timing, What&& what) {
    cudaEvent_t event = nullptr;
    check_cuda(timing == EventTiming::timed ? cudaEventCreate(&event)
                                            : cudaEventCreateWithFlags(&event, cudaEventDisableTiming),
               std::forward<What>(what));
    return CudaEvent(device, event);
  }
};

// Device memory and its size in bytes.
class DeviceMemory : public CudaOwner<void*, &cudaFree> {
 public:
  DeviceMemory() = default;
  DeviceMemory(DeviceMemory&& other) noexcept
      : CudaOwner(std::move(other)), bytes_(std::exchange(other.bytes_, 0)) {}
  DeviceMemory& operator=(DeviceMemory&& other) noexcept {
    if (this != &other) {
      CudaOwner::operator=(std::move(other));
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }

  // Replaces what this holds with `bytes` (at least 1) of memory on `device`, which must be
  // current. On failure it holds nothing and the status is returned, for callers that explain
  // an out-of-memory error themselves.
  cudaError_t allocate(int device, std::size_t bytes) {
    reset();
    bytes_ = 0;
    void* memory = nullptr;
    const cudaError_t status = cudaMalloc(&memory, bytes > 0 ? bytes : 1);
    if (status != cudaSuccess) return status;
    CudaOwner::operator=(CudaOwner(device, memory));
    bytes_ = bytes;
    return cudaSuccess;
  }
  // The same, throwing CudaError with `what` on failure.
  template <class What>
  static DeviceMemory allocate_or_throw(int device, std::size_t bytes, What&& what) {
    DeviceMemory memory;
    check_cuda(memory.allocate(device, bytes), std::forward<What>(what));
    return memory;
  }

  // Keeps what it holds when that is at least `bytes`; otherwise replaces it with `bytes` of
  // new memory (the old contents are lost). For scratch that grows to the largest use.
  template <class What>
  void reserve_or_throw(int device, std::size_t bytes, What&& what) {
    if (size() >= bytes) return;
    check_cuda(allocate(device, bytes), std::forward<What>(what));
  }

  std::byte* data() const { return static_cast<std::byte*>(get()); }
  std::size_t size() const { return get() ? bytes_ : 0; }

 private:
  std::size_t bytes_ = 0;
};

}  // namespace ringviz::gpu
