#include "gpu/gl_interop.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "gpu/cuda_check.h"
#include "gpu/visual_bins.h"

#if RINGVIZ_HAVE_GL_HEADERS
// cuda_gl_interop.h includes GL/gl.h; ask for the prototypes, and never mix in ImGui's loader.
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <cuda_gl_interop.h>
#endif

namespace ringviz::gpu {

std::vector<std::uint32_t> visual_cell_records(const Config& config, const SlotLayout& layout,
                                               const Schedule& schedule, int rounds_done,
                                               const Provenance& provenance) {
  // The record layout and flag rules of core/visual_cells.h, for the cells only.
  const int n = config.ranks;
  const int bins_per_slot = bins_per_slot_for(layout, n);
  std::vector<std::uint32_t> cells(static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * kCellWords, 0u);
  const bool reduce_pass_over = config.op != Op::allgather && rounds_done >= reduce_scatter_rounds(config);
  for (int rank = 0; rank < n; ++rank)
    for (int slot = 0; slot < n; ++slot) {
      std::uint32_t* record =
          cells.data() + (static_cast<std::size_t>(rank) * static_cast<std::size_t>(n) + static_cast<std::size_t>(slot)) *
                             kCellWords;
      const RankSet& set = provenance.at(rank, slot);
      std::uint32_t count = 0;
      std::uint32_t first = kNoContributor;
      for (int k = 0; k < n; ++k) {
        if (!set.test(static_cast<std::size_t>(k))) continue;
        record[k / 32] |= 1u << (k % 32);
        if (first == kNoContributor) first = static_cast<std::uint32_t>(k);
        ++count;
      }
      std::uint32_t flags = 0;
      if (count == 0) flags |= kCellEmpty;
      if (config.op != Op::allgather) {
        if (count == static_cast<std::uint32_t>(n)) flags |= kCellComplete;
        if (reduce_pass_over && count > 0 && count < static_cast<std::uint32_t>(n)) flags |= kCellStale;
        if (schedule.owned_slot.size() == static_cast<std::size_t>(n) &&
            schedule.owned_slot[static_cast<std::size_t>(rank)] == slot)
          flags |= kCellOwned;
      }
      if (layout[slot].count == 0) flags |= kCellNoElements;
      record[8] = count;
      record[9] = flags;
      record[10] = static_cast<std::uint32_t>(std::min<std::int64_t>(layout[slot].count, bins_per_slot));
      record[11] = first;
    }
  return cells;
}

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

template <class T>
struct DeviceArray {
  T* data = nullptr;
  std::size_t size = 0;
  void resize(std::size_t wanted) {
    if (wanted <= size) return;
    if (data) cudaFree(data);
    data = nullptr;
    size = 0;
    check_cuda(cudaMalloc(&data, wanted * sizeof(T)), "heatmap interop: allocating");
    size = wanted;
  }
  ~DeviceArray() {
    if (data) cudaFree(data);
  }
};

std::string bytes_text(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%zu bytes", bytes);
  return text;
}

}  // namespace

struct VisualCellsInterop::Impl {
  int device = 0;
  cudaStream_t stream = nullptr;
  cudaGraphicsResource_t resources[2] = {nullptr, nullptr};  // cells, bins
  DeviceArray<const void*> rank_pointers;
  DeviceArray<std::int64_t> slots;
  // Copies of rank buffers that live on another GPU than the GL context's.
  std::vector<void*> staged;
  std::vector<std::size_t> staged_bytes;

  ~Impl() {
    DeviceGuard guard(device);
    for (cudaGraphicsResource_t resource : resources)
      if (resource) cudaGraphicsUnregisterResource(resource);
    for (void* memory : staged)
      if (memory) cudaFree(memory);
    if (stream) cudaStreamDestroy(stream);
    cudaGetLastError();
  }
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
  impl_->device = devices[0];
  DeviceGuard guard(impl_->device);
  check_cuda(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking), "heatmap interop");
  // Write-discard: every frame rewrites both buffers completely, so CUDA need not keep the
  // old contents.
  check_cuda(cudaGraphicsGLRegisterBuffer(&impl_->resources[0], cells_buffer, cudaGraphicsRegisterFlagsWriteDiscard),
             "registering the heatmap's cell buffer with CUDA");
  check_cuda(cudaGraphicsGLRegisterBuffer(&impl_->resources[1], bins_buffer, cudaGraphicsRegisterFlagsWriteDiscard),
             "registering the heatmap's bin buffer with CUDA");
}

VisualCellsInterop::~VisualCellsInterop() = default;

int VisualCellsInterop::device() const { return impl_->device; }

void VisualCellsInterop::fill(CudaBackend& backend, const Config& config, const SlotLayout& layout,
                              const Schedule& schedule, int rounds_done, const Provenance& provenance,
                              ValueRange range) {
  Impl& impl = *impl_;
  const int n = config.ranks;
  const int bins_per_slot = bins_per_slot_for(layout, n);
  const std::vector<std::uint32_t> cells = visual_cell_records(config, layout, schedule, rounds_done, provenance);
  const std::size_t cells_bytes = cells.size() * sizeof(std::uint32_t);
  const std::size_t bins_bytes =
      static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * static_cast<std::size_t>(bins_per_slot) * 2 * sizeof(float);

  // Rank pointers as the GL device sees them: its own buffers and peers' directly, the rest
  // copied over first.
  std::vector<const void*> pointers(static_cast<std::size_t>(n));
  const std::size_t buffer_bytes = static_cast<std::size_t>(layout.elements_per_rank) * dtype_size(config.dtype);
  impl.staged.resize(static_cast<std::size_t>(n), nullptr);
  impl.staged_bytes.resize(static_cast<std::size_t>(n), 0);
  DeviceGuard guard(impl.device);
  for (int rank = 0; rank < n; ++rank) {
    const void* buffer = backend.device_buffer(rank);  // also waits for queued rounds
    const int owner = backend.device_of_rank(rank);
    int direct = owner == impl.device;
    if (!direct) {
      cudaDeviceCanAccessPeer(&direct, impl.device, owner);
      if (direct) {
        const cudaError_t enabled = cudaDeviceEnablePeerAccess(owner, 0);
        direct = enabled == cudaSuccess || enabled == cudaErrorPeerAccessAlreadyEnabled;
        cudaGetLastError();
      }
    }
    if (direct || buffer_bytes == 0) {
      pointers[static_cast<std::size_t>(rank)] = buffer;
      continue;
    }
    void*& copy = impl.staged[static_cast<std::size_t>(rank)];
    if (impl.staged_bytes[static_cast<std::size_t>(rank)] < buffer_bytes) {
      if (copy) cudaFree(copy);
      copy = nullptr;
      impl.staged_bytes[static_cast<std::size_t>(rank)] = 0;
      check_cuda(cudaMalloc(&copy, buffer_bytes), "heatmap interop: staging rank " + std::to_string(rank));
      impl.staged_bytes[static_cast<std::size_t>(rank)] = buffer_bytes;
    }
    check_cuda(cudaMemcpyPeerAsync(copy, impl.device, buffer, owner, buffer_bytes, impl.stream),
               "heatmap interop: staging rank " + std::to_string(rank));
    pointers[static_cast<std::size_t>(rank)] = copy;
  }
  std::vector<std::int64_t> slot_table;
  for (const Slot& slot : layout.slots) {
    slot_table.push_back(slot.offset);
    slot_table.push_back(slot.count);
  }
  impl.rank_pointers.resize(pointers.size());
  impl.slots.resize(slot_table.size());
  check_cuda(cudaMemcpyAsync(impl.rank_pointers.data, pointers.data(), pointers.size() * sizeof(const void*),
                             cudaMemcpyHostToDevice, impl.stream),
             "heatmap interop");
  check_cuda(cudaMemcpyAsync(impl.slots.data, slot_table.data(), slot_table.size() * sizeof(std::int64_t),
                             cudaMemcpyHostToDevice, impl.stream),
             "heatmap interop");

  // map -> write -> unmap; the unmap orders our writes before GL's next use of the buffers.
  check_cuda(cudaGraphicsMapResources(2, impl.resources, impl.stream), "mapping the heatmap's GL buffers");
  try {
    void* cells_target = nullptr;
    void* bins_target = nullptr;
    std::size_t cells_size = 0, bins_size = 0;
    check_cuda(cudaGraphicsResourceGetMappedPointer(&cells_target, &cells_size, impl.resources[0]),
               "mapping the heatmap's cell buffer");
    check_cuda(cudaGraphicsResourceGetMappedPointer(&bins_target, &bins_size, impl.resources[1]),
               "mapping the heatmap's bin buffer");
    if (cells_size < cells_bytes || bins_size < bins_bytes)
      throw CudaError("CUDA-OpenGL interop: the heatmap's GL buffers hold " + bytes_text(cells_size) + " and " +
                      bytes_text(bins_size) + " but this config needs " + bytes_text(cells_bytes) + " and " +
                      bytes_text(bins_bytes) + "; size them with bins_per_slot_for()");
    check_cuda(cudaMemcpyAsync(cells_target, cells.data(), cells_bytes, cudaMemcpyHostToDevice, impl.stream),
               "writing the heatmap's cells");
    VisualBinsJob job;
    job.dtype = config.dtype;
    job.ranks = n;
    job.bins_per_slot = bins_per_slot;
    job.rank_buffers = impl.rank_pointers.data;
    job.slots = impl.slots.data;
    job.range_lo = range.lo;
    job.range_hi = range.hi;
    job.bins = static_cast<float*>(bins_target);
    check_cuda(launch_visual_bins(job, impl.stream), "the heatmap's bin kernel");
  } catch (...) {
    cudaGraphicsUnmapResources(2, impl.resources, impl.stream);
    cudaGetLastError();
    throw;
  }
  check_cuda(cudaGraphicsUnmapResources(2, impl.resources, impl.stream), "unmapping the heatmap's GL buffers");
  // The host-side tables above are sources of asynchronous copies: keep them alive until done.
  check_cuda(cudaStreamSynchronize(impl.stream), "filling the heatmap");
}

#endif

}  // namespace ringviz::gpu
