// The CUDA suite's entry point. Tests in the "host" suite need no GPU and always run; every
// other test needs a usable CUDA device, and without one the program says why and exits 77,
// which ctest reports as skipped (SKIP_RETURN_CODE).
#include <doctest/doctest.h>

#include <cstdio>

#include "gpu/device/cuda_devices.h"

namespace {

constexpr int kSkipped = 77;

}  // namespace

int main(int argc, char** argv) {
  doctest::Context host(argc, argv);
  host.setOption("test-suite", "host");
  const int host_result = host.run();
  if (host_result != 0 || host.shouldExit()) return host_result;

  const ringviz::gpu::CudaProbe& probe = ringviz::gpu::probe_cuda();
  if (!probe.usable) {
    std::printf("SKIPPED: the CUDA tests need a GPU: %s\n", probe.reason.c_str());
    return kSkipped;
  }
  std::printf("CUDA tests on %s runtime, driver %s:\n",
              ringviz::gpu::cuda_version_text(probe.runtime_version).c_str(),
              ringviz::gpu::cuda_version_text(probe.driver_version).c_str());
  for (const auto& device : probe.devices)
    std::printf("  GPU %d: %s, %.1f GB, compute capability %d.%d, %d multiprocessors\n", device.index,
                device.name.c_str(), static_cast<double>(device.total_bytes) / 1e9, device.compute_major,
                device.compute_minor, device.multiprocessors);

  doctest::Context device(argc, argv);
  device.setOption("test-suite-exclude", "host");
  return device.run();
}
