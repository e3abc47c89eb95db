#pragma once
// Internal to gpu/: the kernel that fills the heatmap's bins (core/teaching/visual_cells.h) from the
// rank buffers, on the current device.
#include <cstdint>

#include <cuda_runtime_api.h>

#include "core/model/dtype.h"

namespace ringviz::gpu {

struct VisualBinsJob {
  DType dtype = DType::f32;
  int ranks = 0;
  int slots_per_rank = 0;                      // N, or N x N for an uneven AllToAll
  int bins_per_slot = 1;
  const void* const* rank_buffers = nullptr;  // device array of `ranks` pointers
  const std::int64_t* slots = nullptr;         // device array: offset, count per slot (slots_per_rank)
  double range_lo = 0;
  double range_hi = 0;
  float* bins = nullptr;                       // ranks * slots_per_rank * bins_per_slot * kBinFloats floats
};

cudaError_t launch_visual_bins(const VisualBinsJob& job, cudaStream_t stream);

}  // namespace ringviz::gpu
