// The reduction kernels: one launch folds one incoming slot into the receiver's slot.
// A ring round is memory-bound (a reduce reads two slots and writes one), so the kernels are
// written for bandwidth: 16-byte loads and stores, several in flight per thread, and a grid
// sized to fill the GPU once and stride over the rest.
#include "gpu/kernels/slot_kernels.h"

#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

#include "core/model/storage_type.h"
#include "gpu/kernels/reference_arithmetic.h"

namespace ringviz::gpu {

namespace {

constexpr int kThreads = 256;
// 16-byte vectors loaded per thread before any is used: enough bytes in flight to cover the
// memory latency without a huge grid.
constexpr int kUnroll = 4;
// Resident blocks we aim for per multiprocessor (1024 threads): every supported GPU holds them.
constexpr int kBlocksPerMultiprocessor = 4;

template <class T>
union Vector {
  static constexpr int kLanes = 16 / static_cast<int>(sizeof(T));
  uint4 raw;
  T lanes[kLanes];
};

template <ReduceOp Op, class T, bool Divide>
__device__ __forceinline__ T fold(T incoming, T local, int ranks) {
  T value = reference_reduce<Op, T>(incoming, local);
  if constexpr (Divide) value = reference_divide(value, ranks);
  return value;
}

template <ReduceOp Op, class T, bool Divide>
__global__ void __launch_bounds__(kThreads)
    reduce_slot_kernel(const T* __restrict__ incoming, T* __restrict__ local, std::int64_t count,
                       int ranks) {
  constexpr int kLanes = Vector<T>::kLanes;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;

  // Both slots sit at the same offset of buffers that cudaMalloc aligned to 256 bytes, so they
  // reach a 16-byte boundary after the same number of elements. If they ever did not, every
  // element takes the scalar path below.
  const auto local_misalignment = reinterpret_cast<std::uintptr_t>(local) % 16;
  const auto incoming_misalignment = reinterpret_cast<std::uintptr_t>(incoming) % 16;
  std::int64_t head = 0;
  if (local_misalignment != incoming_misalignment)
    head = count;
  else if (local_misalignment != 0)
    head = min(count, static_cast<std::int64_t>((16 - local_misalignment) / sizeof(T)));

  for (std::int64_t i = thread; i < head; i += threads)
    local[i] = fold<Op, T, Divide>(incoming[i], local[i], ranks);

  const std::int64_t vectors = (count - head) / kLanes;
  const uint4* incoming_vectors = reinterpret_cast<const uint4*>(incoming + head);
  uint4* local_vectors = reinterpret_cast<uint4*>(local + head);
  for (std::int64_t base = thread; base < vectors; base += threads * kUnroll) {
    Vector<T> in[kUnroll];
    Vector<T> out[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t v = base + u * threads;
      if (v < vectors) {
        in[u].raw = incoming_vectors[v];
        out[u].raw = local_vectors[v];
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t v = base + u * threads;
      if (v < vectors) {
#pragma unroll
        for (int lane = 0; lane < kLanes; ++lane)
          out[u].lanes[lane] = fold<Op, T, Divide>(in[u].lanes[lane], out[u].lanes[lane], ranks);
        local_vectors[v] = out[u].raw;
      }
    }
  }

  for (std::int64_t i = head + vectors * kLanes + thread; i < count; i += threads)
    local[i] = fold<Op, T, Divide>(incoming[i], local[i], ranks);
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    divide_slot_kernel(T* __restrict__ values, std::int64_t count, int ranks) {
  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += threads)
    values[i] = reference_divide(values[i], ranks);
}

unsigned grid_for(std::int64_t work_items, int multiprocessors) {
  const std::int64_t per_block = static_cast<std::int64_t>(kThreads) * kUnroll;
  const std::int64_t wanted = (work_items + per_block - 1) / per_block;
  const std::int64_t cap = static_cast<std::int64_t>(std::max(1, multiprocessors)) * kBlocksPerMultiprocessor;
  return static_cast<unsigned>(std::clamp<std::int64_t>(wanted, 1, cap));
}

template <ReduceOp Op, class T, bool Divide>
cudaError_t launch(const void* incoming, void* local, std::int64_t count, int ranks,
                   cudaStream_t stream, int multiprocessors) {
  const unsigned blocks = grid_for((count + Vector<T>::kLanes - 1) / Vector<T>::kLanes, multiprocessors);
  reduce_slot_kernel<Op, T, Divide><<<blocks, kThreads, 0, stream>>>(
      static_cast<const T*>(incoming), static_cast<T*>(local), count, ranks);
  return cudaGetLastError();
}

template <class T>
cudaError_t launch_typed(ReduceOp op, const void* incoming, void* local, std::int64_t count,
                         int divide_by, cudaStream_t stream, int multiprocessors) {
  switch (op) {
    case ReduceOp::sum: return launch<ReduceOp::sum, T, false>(incoming, local, count, 1, stream, multiprocessors);
    case ReduceOp::prod: return launch<ReduceOp::prod, T, false>(incoming, local, count, 1, stream, multiprocessors);
    case ReduceOp::max: return launch<ReduceOp::max, T, false>(incoming, local, count, 1, stream, multiprocessors);
    case ReduceOp::min: return launch<ReduceOp::min, T, false>(incoming, local, count, 1, stream, multiprocessors);
    case ReduceOp::avg:
      if (divide_by > 0)
        return launch<ReduceOp::avg, T, true>(incoming, local, count, divide_by, stream, multiprocessors);
      return launch<ReduceOp::avg, T, false>(incoming, local, count, 1, stream, multiprocessors);
  }
  return cudaErrorInvalidValue;
}

template <class T>
cudaError_t launch_divide_typed(void* values, std::int64_t count, int ranks, cudaStream_t stream,
                                int multiprocessors) {
  divide_slot_kernel<T><<<grid_for(count, multiprocessors), kThreads, 0, stream>>>(
      static_cast<T*>(values), count, ranks);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_reduce_slot(DType dtype, ReduceOp op, const void* incoming, void* local,
                               std::int64_t count, int divide_by, cudaStream_t stream,
                               int multiprocessors) {
  if (count <= 0) return cudaSuccess;
  return with_storage_type(dtype, [&](auto* type) {
    return launch_typed<storage_of<decltype(type)>>(op, incoming, local, count, divide_by, stream, multiprocessors);
  });
}

cudaError_t launch_divide_slot(DType dtype, void* values, std::int64_t count, int ranks,
                               cudaStream_t stream, int multiprocessors) {
  if (count <= 0) return cudaSuccess;
  return with_storage_type(dtype, [&](auto* type) {
    return launch_divide_typed<storage_of<decltype(type)>>(values, count, ranks, stream, multiprocessors);
  });
}

}  // namespace ringviz::gpu
