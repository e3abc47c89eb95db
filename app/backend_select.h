#pragma once
// Choosing the backend a session runs on (--backend auto|cpu|cuda, the GUI's backend menu),
// and describing it for the GUI's backend panel. Compiles with or without the CUDA backend:
// nothing here names a CUDA type.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine/backend.h"
#include "core/model/config.h"

namespace ringviz {

// How one transfer's bytes travel between the sender's and the receiver's buffer.
enum class TransferPath {
  host_memory,          // CPU backend: a copy inside host memory
  same_device,          // both ranks on one GPU
  peer_to_peer,         // GPU to GPU directly (NVLink or PCIe peer access)
  staged_through_host,  // two GPUs without peer access: the driver copies through the host
};
std::string_view transfer_path_name(TransferPath path);

struct GpuSummary {
  int index = 0;  // CUDA device ordinal
  std::string name;
  std::uint64_t total_bytes = 0;
  std::uint64_t free_bytes = 0;  // when the backend was chosen
  int compute_major = 0;
  int compute_minor = 0;
};

// What the GUI shows about the backend in use.
struct BackendInfo {
  std::string name = "cpu";  // "cpu" | "cuda"
  std::string summary;       // one line, e.g. "cuda: 1 GPU (NVIDIA H200, 150.0 GB), CUDA 13.0"
  std::vector<GpuSummary> gpus;  // the GPUs ranks are spread over; empty on the CPU
  // peer[reader][owner]: GPU number `reader` (an index into gpus) reads `owner` directly.
  std::vector<std::vector<bool>> peer;

  // Index into gpus of the GPU rank `rank` lives on (round-robin), -1 on the CPU.
  int gpu_of_rank(int rank) const;
  TransferPath path(int src_rank, int dst_rank) const;
};

struct BackendSelection {
  std::unique_ptr<Backend> backend;
  // Set when the backend is not the one asked for or `auto` fell back to the CPU: why, in one
  // sentence, to be shown to the user.
  std::string notice;
  BackendInfo info;
};

// True when this build contains the CUDA backend (nvcc was found at configure time).
bool cuda_backend_built();

// auto: CUDA when this build has it and a device is usable, the CPU otherwise (with a
// notice). cuda without a usable device throws InputError with the reason (exit code 2).
BackendSelection select_backend(BackendChoice choice);

// The GUI's way out when the CUDA backend fails mid-session (a kernel fault, out of memory):
// a CPU backend and a notice that starts with what went wrong.
BackendSelection fall_back_to_cpu(const std::string& reason);

}  // namespace ringviz
