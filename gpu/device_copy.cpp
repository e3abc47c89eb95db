#include <algorithm>

#include <cuda_runtime.h>

#include "gpu/cuda_check.h"
#include "gpu/device_baselines.h"

namespace ringviz::gpu {

namespace {

// Copies are batched until a batch takes this long, so that event resolution and launch
// overhead vanish from the figure even for small buffers.
constexpr float kMinBatchMilliseconds = 20.0f;

struct DeviceMemory {
  void* pointer = nullptr;
  ~DeviceMemory() {
    if (pointer) cudaFree(pointer);
  }
};

struct Event {
  cudaEvent_t event = nullptr;
  ~Event() {
    if (event) cudaEventDestroy(event);
  }
};

struct Stream {
  cudaStream_t stream = nullptr;
  ~Stream() {
    if (stream) cudaStreamDestroy(stream);
  }
};

}  // namespace

double device_copy_bandwidth(std::uint64_t bytes, int device) {
  if (bytes == 0) return 0;
  DeviceGuard guard(device);
  DeviceMemory source, target;
  const std::string what = "device copy baseline on GPU " + std::to_string(device);
  check_cuda(cudaMalloc(&source.pointer, bytes), what);
  check_cuda(cudaMalloc(&target.pointer, bytes), what);
  check_cuda(cudaMemset(source.pointer, 1, bytes), what);
  Stream stream;
  Event start, stop;
  check_cuda(cudaStreamCreateWithFlags(&stream.stream, cudaStreamNonBlocking), what);
  check_cuda(cudaEventCreate(&start.event), what);
  check_cuda(cudaEventCreate(&stop.event), what);
  check_cuda(cudaDeviceSynchronize(), what);
  check_cuda(cudaMemcpyAsync(target.pointer, source.pointer, bytes, cudaMemcpyDeviceToDevice, stream.stream),
             what);  // first touch of the pages, untimed
  for (int batch = 1;; batch *= 2) {
    check_cuda(cudaEventRecord(start.event, stream.stream), what);
    for (int i = 0; i < batch; ++i)
      check_cuda(cudaMemcpyAsync(target.pointer, source.pointer, bytes, cudaMemcpyDeviceToDevice,
                                 stream.stream),
                 what);
    check_cuda(cudaEventRecord(stop.event, stream.stream), what);
    check_cuda(cudaEventSynchronize(stop.event), what);
    float milliseconds = 0;
    check_cuda(cudaEventElapsedTime(&milliseconds, start.event, stop.event), what);
    if (milliseconds >= kMinBatchMilliseconds || batch >= (1 << 20))
      return 2.0 * static_cast<double>(bytes) * batch / (static_cast<double>(milliseconds) * 1e-3);
  }
}

}  // namespace ringviz::gpu
