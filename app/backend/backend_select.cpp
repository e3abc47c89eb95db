#include "app/backend/backend_select.h"

#include <cstdio>

#if RINGVIZ_WITH_CUDA
#include "gpu/backend/cuda_backend.h"
#include "gpu/device/cuda_devices.h"
#endif

namespace ringviz {

namespace {

std::string gigabytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / 1e9);
  return text;
}

BackendSelection cpu_selection(std::string notice) {
  BackendSelection selection;
  selection.backend = make_cpu_backend();
  selection.notice = std::move(notice);
  selection.info.name = "cpu";
  selection.info.summary = "cpu: rank buffers in host memory";
  return selection;
}

#if RINGVIZ_WITH_CUDA
BackendInfo describe(const gpu::CudaBackend& backend) {
  const gpu::CudaProbe& probe = gpu::probe_cuda();
  BackendInfo info;
  info.name = "cuda";
  for (const gpu::DeviceInfo& device : backend.devices())
    info.gpus.push_back({device.index, device.name, device.total_bytes, device.free_bytes,
                         device.compute_major, device.compute_minor});
  const int k = static_cast<int>(info.gpus.size());
  info.summary = "cuda: " + std::to_string(k) + (k == 1 ? " GPU (" : " GPUs (");
  for (int i = 0; i < k; ++i)
    info.summary += (i ? "; " : "") + info.gpus[static_cast<std::size_t>(i)].name + ", " +
                    gigabytes(info.gpus[static_cast<std::size_t>(i)].total_bytes);
  info.summary += "), " + gpu::cuda_version_text(probe.runtime_version) + " runtime, driver " +
                  gpu::cuda_version_text(probe.driver_version).substr(5);
  return info;
}
#endif

}  // namespace

BackendSelection select_backend(BackendChoice choice) {
  if (choice == BackendChoice::cpu) return cpu_selection("");
#if RINGVIZ_WITH_CUDA
  std::string reason = gpu::probe_cuda().reason;
  if (reason.empty()) {
    try {
      auto backend = gpu::make_cuda_backend();
      BackendSelection selection;
      selection.info = describe(*backend);
      selection.backend = std::move(backend);
      return selection;
    } catch (const gpu::CudaError& error) {
      reason = error.what();
    }
  }
#else
  const std::string reason =
      "this build has no CUDA backend (nvcc was not found when it was configured)";
#endif
  if (choice == BackendChoice::cuda)
    throw InputError("--backend cuda: " + reason + "; use --backend cpu or auto");
  BackendSelection selection = cpu_selection("using the CPU backend: " + reason);
  selection.fallback_reason = reason;
#if !RINGVIZ_WITH_CUDA
  selection.built_without_cuda = true;
#endif
  return selection;
}

}  // namespace ringviz
