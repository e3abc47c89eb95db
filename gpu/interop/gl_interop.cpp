#include "gpu/interop/gl_interop.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "gpu/device/cuda_check.h"
#include "gpu/backend/cuda_owners.h"
#include "gpu/interop/visual_bins.h"

#if RINGVIZ_HAVE_GL_HEADERS
// cuda_gl_interop.h includes GL/gl.h; ask for the prototypes, and never mix in ImGui's loader.
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <cuda_gl_interop.h>
#endif

namespace ringviz::gpu {

#if !RINGVIZ_HAVE_GL_HEADERS

struct VisualCellsInterop::Impl {};

VisualCellsInterop::VisualCellsInterop(unsigned int, unsigned int) {
  throw CudaError("CUDA-OpenGL interop: this build found no OpenGL headers; the CPU upload is used");
}
VisualCellsInterop::~VisualCellsInterop() = default;
int VisualCellsInterop::device() const { return -1; }
void VisualCellsInterop::fill(CudaBackend&, const Config&, const SlotLayout&, const Schedule&, int,
                              const Provenance&, ValueRange) {}

#else

namespace {

// A GL buffer registered with CUDA; unregistered when it goes away.
using GraphicsResource = CudaOwner<cudaGraphicsResource_t, &cudaGraphicsUnregisterResource>;

// Write-discard: every frame rewrites both buffers completely, so CUDA need not keep the old
// contents.
GraphicsResource register_gl_buffer(int device, unsigned int buffer, const char* what) {
  cudaGraphicsResource_t resource = nullptr;
  check_cuda(cudaGraphicsGLRegisterBuffer(&resource, buffer, cudaGraphicsRegisterFlagsWriteDiscard), what);
  return GraphicsResource(device, resource);
}

std::string bytes_text(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%zu bytes", bytes);
  return text;
}

}  // namespace

struct VisualCellsInterop::Impl {
  int device = 0;
  CudaStream stream;
  GraphicsResource cells_resource;
  GraphicsResource bins_resource;
  DeviceMemory rank_pointers;  // const void*[ranks]
  DeviceMemory slots;          // offset, count per slot
  // Copies of rank buffers that live on another GPU than the GL context's.
  std::vector<DeviceMemory> staged;
  std::vector<std::uint32_t> cells;  // the packed records, reused from frame to frame
};

VisualCellsInterop::VisualCellsInterop(unsigned int cells_buffer, unsigned int bins_buffer)
    : impl_(std::make_unique<Impl>()) {
  const CudaProbe& probe = probe_cuda();
  if (!probe.usable) throw CudaError("CUDA-OpenGL interop: " + probe.reason);
  // The context's own GPU: registering a buffer anywhere else fails or copies behind our back.
  unsigned int count = 0;
  int devices[8] = {};
  const cudaError_t found = cudaGLGetDevices(&count, devices, 8, cudaGLDeviceListAll);
  if (found != cudaSuccess || count == 0) {
    cudaGetLastError();
    throw CudaError(
        "CUDA-OpenGL interop: the current OpenGL context does not run on a CUDA device (it is "
        "probably Mesa's software renderer); the heatmap is uploaded from the host instead");
  }
  const int device = devices[0];
  impl_->device = device;
  DeviceGuard guard(device);
  impl_->stream = CudaStream::create_non_blocking(device, "heatmap interop");
  impl_->cells_resource =
      register_gl_buffer(device, cells_buffer, "registering the heatmap's cell buffer with CUDA");
  impl_->bins_resource =
      register_gl_buffer(device, bins_buffer, "registering the heatmap's bin buffer with CUDA");
}

VisualCellsInterop::~VisualCellsInterop() = default;

int VisualCellsInterop::device() const { return impl_->device; }

void VisualCellsInterop::fill(CudaBackend& backend, const Config& config, const SlotLayout& layout,
                              const Schedule& schedule, int rounds_done, const Provenance& provenance,
                              ValueRange range) {
  Impl& impl = *impl_;
  const int n = config.ranks;
  const int bins_per_slot = bins_per_slot_for(layout, n);
  // The records depend on the schedule and provenance only: the host packs them, as the CPU
  // upload does, and they are copied over; only the bins need the device's values.
  fill_cell_records(config, layout, schedule, rounds_done, provenance, impl.cells);
  const std::vector<std::uint32_t>& cells = impl.cells;
  const std::size_t cells_bytes = cells.size() * sizeof(std::uint32_t);
  const std::size_t bins_bytes = static_cast<std::size_t>(n) * static_cast<std::size_t>(layout.size()) *
                                 static_cast<std::size_t>(bins_per_slot) * kBinFloats * sizeof(float);
  const cudaStream_t stream = impl.stream.get();

  // Rank pointers as the GL device sees them: its own buffers and peers' directly, the rest
  // copied over first.
  std::vector<const void*> pointers(static_cast<std::size_t>(n));
  const std::size_t buffer_bytes = static_cast<std::size_t>(layout.elements_per_rank) * dtype_size(config.dtype);
  impl.staged.resize(static_cast<std::size_t>(n));
  DeviceGuard guard(impl.device);
  for (int rank = 0; rank < n; ++rank) {
    const void* buffer = backend.device_buffer(rank);  // also waits for queued rounds
    const int owner = backend.device_of_rank(rank);
    int can_access = 0;
    const bool direct = owner == impl.device ||
                        (cudaDeviceCanAccessPeer(&can_access, impl.device, owner) == cudaSuccess &&
                         can_access && enable_peer_access(impl.device, owner));
    if (direct || buffer_bytes == 0) {
      pointers[static_cast<std::size_t>(rank)] = buffer;
      continue;
    }
    const auto staging = [&] { return "heatmap interop: staging rank " + std::to_string(rank); };
    DeviceMemory& copy = impl.staged[static_cast<std::size_t>(rank)];
    copy.reserve_or_throw(impl.device, buffer_bytes, staging);
    check_cuda(cudaMemcpyPeerAsync(copy.data(), impl.device, buffer, owner, buffer_bytes, stream), staging);
    pointers[static_cast<std::size_t>(rank)] = copy.data();
  }
  std::vector<std::int64_t> slot_table;
  for (const Slot& slot : layout.slots) {
    slot_table.push_back(slot.offset);
    slot_table.push_back(slot.count);
  }
  const std::size_t pointer_bytes = pointers.size() * sizeof(const void*);
  const std::size_t slot_bytes = slot_table.size() * sizeof(std::int64_t);
  impl.rank_pointers.reserve_or_throw(impl.device, pointer_bytes, "heatmap interop: allocating");
  impl.slots.reserve_or_throw(impl.device, slot_bytes, "heatmap interop: allocating");
  check_cuda(cudaMemcpyAsync(impl.rank_pointers.data(), pointers.data(), pointer_bytes,
                             cudaMemcpyHostToDevice, stream),
             "heatmap interop");
  check_cuda(cudaMemcpyAsync(impl.slots.data(), slot_table.data(), slot_bytes, cudaMemcpyHostToDevice, stream),
             "heatmap interop");

  // map -> write -> unmap; the unmap orders our writes before GL's next use of the buffers.
  cudaGraphicsResource_t resources[2] = {impl.cells_resource.get(), impl.bins_resource.get()};
  check_cuda(cudaGraphicsMapResources(2, resources, stream), "mapping the heatmap's GL buffers");
  try {
    void* cells_target = nullptr;
    void* bins_target = nullptr;
    std::size_t cells_size = 0, bins_size = 0;
    check_cuda(cudaGraphicsResourceGetMappedPointer(&cells_target, &cells_size, resources[0]),
               "mapping the heatmap's cell buffer");
    check_cuda(cudaGraphicsResourceGetMappedPointer(&bins_target, &bins_size, resources[1]),
               "mapping the heatmap's bin buffer");
    if (cells_size < cells_bytes || bins_size < bins_bytes)
      throw CudaError("CUDA-OpenGL interop: the heatmap's GL buffers hold " + bytes_text(cells_size) + " and " +
                      bytes_text(bins_size) + " but this config needs " + bytes_text(cells_bytes) + " and " +
                      bytes_text(bins_bytes) + "; size them with bins_per_slot_for()");
    check_cuda(cudaMemcpyAsync(cells_target, cells.data(), cells_bytes, cudaMemcpyHostToDevice, stream),
               "writing the heatmap's cells");
    VisualBinsJob job;
    job.dtype = config.dtype;
    job.ranks = n;
    job.slots_per_rank = layout.size();
    job.bins_per_slot = bins_per_slot;
    job.rank_buffers = static_cast<const void* const*>(impl.rank_pointers.get());
    job.slots = static_cast<const std::int64_t*>(impl.slots.get());
    job.range_lo = range.lo;
    job.range_hi = range.hi;
    job.bins = static_cast<float*>(bins_target);
    check_cuda(launch_visual_bins(job, stream), "the heatmap's bin kernel");
  } catch (...) {
    cudaGraphicsUnmapResources(2, resources, stream);
    cudaGetLastError();
    throw;
  }
  check_cuda(cudaGraphicsUnmapResources(2, resources, stream), "unmapping the heatmap's GL buffers");
  // The host-side tables above are sources of asynchronous copies: keep them alive until done.
  check_cuda(cudaStreamSynchronize(stream), "filling the heatmap");
}

#endif

}  // namespace ringviz::gpu
