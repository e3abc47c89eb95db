#include "gpu/device/cuda_devices.h"

#include <mutex>

#include <cuda_runtime.h>

#include "gpu/device/cuda_check.h"

namespace ringviz::gpu {

namespace {

// CUDA 13 builds code for compute capability 7.5 and newer only.
constexpr int kOldestMajor = 7;
constexpr int kOldestMinor = 5;

CudaProbe run_probe() {
  CudaProbe probe;
  cudaDriverGetVersion(&probe.driver_version);
  cudaRuntimeGetVersion(&probe.runtime_version);
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    probe.reason = "no usable CUDA device: " + describe_cuda_error(status);
    return probe;
  }
  if (count == 0) {
    probe.reason = "no usable CUDA device: the CUDA runtime sees no GPU";
    return probe;
  }
  for (int device = 0; device < count; ++device) {
    cudaDeviceProp properties{};
    if (const cudaError_t error = cudaGetDeviceProperties(&properties, device); error != cudaSuccess) {
      cudaGetLastError();
      probe.reason = "no usable CUDA device: GPU " + std::to_string(device) +
                     " cannot be queried: " + describe_cuda_error(error);
      return probe;
    }
    DeviceInfo info;
    info.index = device;
    info.name = properties.name;
    info.total_bytes = properties.totalGlobalMem;
    info.compute_major = properties.major;
    info.compute_minor = properties.minor;
    info.multiprocessors = properties.multiProcessorCount;
    if (info.compute_major * 10 + info.compute_minor < kOldestMajor * 10 + kOldestMinor) {
      probe.reason = "no usable CUDA device: GPU " + std::to_string(device) + " (" + info.name +
                     ") has compute capability " + std::to_string(info.compute_major) + "." +
                     std::to_string(info.compute_minor) + "; this build needs 7.5 or newer";
      return probe;
    }
    // cudaMemGetInfo creates the device's context: the first place a busy or broken GPU
    // (exclusive mode, a driver/runtime mismatch the count did not reveal) shows up.
    size_t free_bytes = 0, total_bytes = 0;
    const cudaError_t set = cudaSetDevice(device);
    const cudaError_t memory = set == cudaSuccess ? cudaMemGetInfo(&free_bytes, &total_bytes) : set;
    if (memory != cudaSuccess) {
      cudaGetLastError();
      probe.reason = "no usable CUDA device: GPU " + std::to_string(device) + " (" + info.name +
                     ") cannot be used: " + describe_cuda_error(memory);
      return probe;
    }
    info.free_bytes = free_bytes;
    probe.devices.push_back(std::move(info));
  }
  cudaSetDevice(0);
  probe.can_access_peer.assign(static_cast<std::size_t>(count),
                               std::vector<bool>(static_cast<std::size_t>(count), false));
  for (int a = 0; a < count; ++a)
    for (int b = 0; b < count; ++b) {
      int can = 0;
      if (a != b && cudaDeviceCanAccessPeer(&can, a, b) == cudaSuccess)
        probe.can_access_peer[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = can != 0;
    }
  cudaGetLastError();
  probe.usable = true;
  return probe;
}

}  // namespace

std::string cuda_version_text(int version) {
  return "CUDA " + std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

bool enable_peer_access(int reader, int owner) {
  QuietDeviceGuard guard(reader);
  const cudaError_t status = cudaDeviceEnablePeerAccess(owner, 0);
  cudaGetLastError();
  return status == cudaSuccess || status == cudaErrorPeerAccessAlreadyEnabled;
}

const CudaProbe& probe_cuda() {
  static std::once_flag once;
  static CudaProbe probe;
  std::call_once(once, [] { probe = run_probe(); });
  return probe;
}

}  // namespace ringviz::gpu
