#include "app/backend_select.h"

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
  info.peer.assign(static_cast<std::size_t>(k), std::vector<bool>(static_cast<std::size_t>(k), false));
  // Rank i lives on GPU i for i < k, so the backend's rank-to-rank link answers per GPU pair.
  for (int reader = 0; reader < k; ++reader)
    for (int owner = 0; owner < k; ++owner)
      info.peer[static_cast<std::size_t>(reader)][static_cast<std::size_t>(owner)] =
          reader != owner && backend.link(owner, reader) == gpu::LinkKind::peer_to_peer;
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

std::string_view transfer_path_name(TransferPath path) {
  switch (path) {
    case TransferPath::host_memory: return "host memory";
    case TransferPath::same_device: return "same device";
    case TransferPath::peer_to_peer: return "peer-to-peer";
    case TransferPath::staged_through_host: return "staged through host";
  }
  return "?";
}

int BackendInfo::gpu_of_rank(int rank) const {
  if (gpus.empty()) return -1;
  return rank % static_cast<int>(gpus.size());
}

TransferPath BackendInfo::path(int src_rank, int dst_rank) const {
  if (gpus.empty()) return TransferPath::host_memory;
  const int owner = gpu_of_rank(src_rank);
  const int reader = gpu_of_rank(dst_rank);
  if (owner == reader) return TransferPath::same_device;
  return peer[static_cast<std::size_t>(reader)][static_cast<std::size_t>(owner)]
             ? TransferPath::peer_to_peer
             : TransferPath::staged_through_host;
}

bool cuda_backend_built() {
#if RINGVIZ_WITH_CUDA
  return true;
#else
  return false;
#endif
}

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
  return cpu_selection("using the CPU backend: " + reason);
}

BackendSelection fall_back_to_cpu(const std::string& reason) {
  return cpu_selection(reason + "; switched to the CPU backend");
}

}  // namespace ringviz
