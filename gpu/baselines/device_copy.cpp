#include <algorithm>

#include <cuda_runtime.h>

#include "gpu/device/cuda_check.h"
#include "gpu/backend/cuda_owners.h"
#include "gpu/baselines/device_baselines.h"

namespace ringviz::gpu {

namespace {

// Copies are batched until a batch takes this long, so that event resolution and launch
// overhead vanish from the figure even for small buffers.
constexpr float kMinBatchMilliseconds = 20.0f;

}  // namespace

double device_copy_bandwidth(std::uint64_t bytes, int device) {
  if (bytes == 0) return 0;
  DeviceGuard guard(device);
  const auto what = [&] { return "device copy baseline on GPU " + std::to_string(device); };
  const DeviceMemory source = DeviceMemory::allocate_or_throw(device, bytes, what);
  const DeviceMemory target = DeviceMemory::allocate_or_throw(device, bytes, what);
  check_cuda(cudaMemset(source.get(), 1, bytes), what);
  const CudaStream stream = CudaStream::create_non_blocking(device, what);
  const CudaEvent start = CudaEvent::create(device, EventTiming::timed, what);
  const CudaEvent stop = CudaEvent::create(device, EventTiming::timed, what);
  check_cuda(cudaDeviceSynchronize(), what);
  const auto copy = [&] {
    check_cuda(cudaMemcpyAsync(target.get(), source.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()), what);
  };
  copy();  // first touch of the pages, untimed
  for (int batch = 1;; batch *= 2) {
    check_cuda(cudaEventRecord(start.get(), stream.get()), what);
    for (int i = 0; i < batch; ++i) copy();
    check_cuda(cudaEventRecord(stop.get(), stream.get()), what);
    check_cuda(cudaEventSynchronize(stop.get()), what);
    float milliseconds = 0;
    check_cuda(cudaEventElapsedTime(&milliseconds, start.get(), stop.get()), what);
    if (milliseconds >= kMinBatchMilliseconds || batch >= (1 << 20))
      return 2.0 * static_cast<double>(bytes) * batch / (static_cast<double>(milliseconds) * 1e-3);
  }
}

}  // namespace ringviz::gpu
