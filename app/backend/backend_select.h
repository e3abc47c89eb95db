#pragma once
// Choosing the backend a session runs on (--backend auto|cpu|cuda, the GUI's backend menu),
// and describing it for the GUI's backend panel. Compiles with or without the CUDA backend:
// nothing here names a CUDA type.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/engine/backend.h"
#include "core/model/config.h"

namespace ringviz {

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
};

struct BackendSelection {
  std::unique_ptr<Backend> backend;
  // Set when the backend is not the one asked for or `auto` fell back to the CPU: why, in one
  // sentence, to be shown to the user.
  std::string notice;
  // The notice's parts, for a GUI that words it in its own language: why CUDA is not used
  // (the driver's or the runtime's words), or that this build has no CUDA at all.
  std::string fallback_reason;
  bool built_without_cuda = false;
  BackendInfo info;
};

// auto: CUDA when this build has it and a device is usable, the CPU otherwise (with a
// notice). cuda without a usable device throws InputError with the reason (exit code 2).
BackendSelection select_backend(BackendChoice choice);

}  // namespace ringviz
