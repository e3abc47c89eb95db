#pragma once
// CUDA-OpenGL interop for the heatmap: the CUDA backend writes the visual cell data
// (core/teaching/visual_cells.h) straight from the rank buffers into the GL buffers the shader reads,
// with no trip through the host. The GUI uses it like this:
//
//   create the GL context, then the GL buffers (cells: ranks * slots * kCellWords * 4 bytes,
//   bins: ranks * slots * bins_per_slot * kBinFloats * 4 bytes), sized once per session;
//   VisualCellsInterop interop(cells_buffer, bins_buffer);   // registers both, once
//   each round:  interop.fill(backend, ...);                 // map -> kernel -> unmap
//                draw as usual;
//   destroy `interop` before glDeleteBuffers on either buffer (it unregisters them).
//
// The bytes written are the ones fill_visual_cells() computes on the host and the CPU path
// uploads with glBufferSubData, so both paths draw the same pixels.
//
// No GL or CUDA header here; GL buffer names are plain unsigned ints (GLuint).
#include <memory>

#include "core/schedule/rounds.h"
#include "core/model/config.h"
#include "core/model/layout.h"
#include "core/engine/provenance.h"
#include "core/teaching/visual_cells.h"
#include "gpu/backend/cuda_backend.h"

namespace ringviz::gpu {

class VisualCellsInterop {
 public:
  // Needs the GL context that owns both buffers current on this thread, running on a CUDA
  // device (the NVIDIA driver, not Mesa). Throws CudaError saying what is wrong otherwise.
  VisualCellsInterop(unsigned int cells_buffer, unsigned int bins_buffer);
  ~VisualCellsInterop();
  VisualCellsInterop(const VisualCellsInterop&) = delete;
  VisualCellsInterop& operator=(const VisualCellsInterop&) = delete;

  // The CUDA device the GL context runs on: where the fill kernel runs.
  int device() const;

  // Writes the state after `rounds_done` rounds, which must be the state `backend` holds.
  // Throws CudaError when a buffer is smaller than the format needs.
  void fill(CudaBackend& backend, const Config& config, const SlotLayout& layout,
            const Schedule& schedule, int rounds_done, const Provenance& provenance,
            ValueRange range);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ringviz::gpu
