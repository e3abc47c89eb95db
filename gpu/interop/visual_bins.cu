// One thread per bin: the mean of the bin's elements in double, summed in element order, then
// normalised, exactly as core/teaching/visual_cells.cpp does on the host (same operations in the same
// order, no FMA), so the GL buffer gets the same bytes either way.
#include "gpu/interop/visual_bins.h"

#include <cuda_runtime.h>

#include "core/teaching/cell_record.h"
#include "core/model/half.h"
#include "core/model/storage_type.h"
#include "gpu/kernels/reference_arithmetic.h"

namespace ringviz::gpu {

namespace {

constexpr int kThreads = 256;

template <class Storage>
__device__ double widen(const Storage& value) {
  if constexpr (std::is_same_v<Storage, Half>) return half_to_float(value);
  else if constexpr (std::is_same_v<Storage, BFloat16>) return bfloat16_to_float(value);
  else return static_cast<double>(value);
}

// x86's cvtsd2ss on a NaN keeps the sign and the top 22 payload bits and sets the quiet bit;
// the GPU would give its canonical NaN instead.
__device__ float to_float_as_on_x86(double value) {
  if (!is_nan_value(value)) return static_cast<float>(value);
  std::uint64_t bits;
  memcpy(&bits, &value, sizeof bits);
  const auto sign = static_cast<std::uint32_t>(bits >> 32) & 0x80000000u;
  const auto payload = static_cast<std::uint32_t>((bits >> 29) & 0x3fffffu);
  return float_from_bits(sign | 0x7fc00000u | payload);
}

// core's normalise(): -1 for NaN, 0.5 for an empty range, else the clamped position.
__device__ float normalise(double value, double lo, double hi) {
  if (is_nan_value(value)) return -1.0f;
  if (!(hi > lo)) return 0.5f;
  const double t = (value - lo) / (hi - lo);
  // std::clamp(t, 0.0, 1.0), comparison for comparison.
  const double clamped = t < 0.0 ? 0.0 : (1.0 < t ? 1.0 : t);
  return static_cast<float>(clamped);
}

template <class Storage>
__global__ void __launch_bounds__(kThreads) visual_bins_kernel(VisualBinsJob job) {
  const std::int64_t total =
      static_cast<std::int64_t>(job.ranks) * job.slots_per_rank * job.bins_per_slot;
  const std::int64_t index = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= total) return;
  const std::int64_t cell = index / job.bins_per_slot;
  const std::int64_t bin = index % job.bins_per_slot;
  // cell = rank * S + slot (core/teaching/cell_record.h)
  const int rank = static_cast<int>(cell / job.slots_per_rank);
  const int slot = static_cast<int>(cell % job.slots_per_rank);
  const std::int64_t offset = job.slots[2 * slot];
  const std::int64_t count = job.slots[2 * slot + 1];
  const std::int64_t used = count < job.bins_per_slot ? count : job.bins_per_slot;
  float* out = job.bins + bin_float_index(cell, job.bins_per_slot, bin);
  if (bin >= used) {  // the host leaves unused bins zero
    out[kBinValue] = 0.0f;
    out[kBinNormalised] = 0.0f;
    return;
  }
  const std::int64_t begin = bin * count / used;
  const std::int64_t end = (bin + 1) * count / used;
  const Storage* data = static_cast<const Storage*>(job.rank_buffers[rank]) + offset;
  double sum = 0;
  for (std::int64_t i = begin; i < end; ++i) {
    const double value = widen(data[i]);
    sum = nan_as_on_x86(sum + value, sum, value);
  }
  const double divisor = static_cast<double>(end - begin);
  const double mean = nan_as_on_x86(sum / divisor, sum, divisor);
  out[kBinValue] = to_float_as_on_x86(mean);
  out[kBinNormalised] = normalise(mean, job.range_lo, job.range_hi);
}

template <class Storage>
cudaError_t launch_typed(const VisualBinsJob& job, cudaStream_t stream) {
  const std::int64_t total = static_cast<std::int64_t>(job.ranks) * job.slots_per_rank * job.bins_per_slot;
  if (total == 0) return cudaSuccess;
  const auto blocks = static_cast<unsigned>((total + kThreads - 1) / kThreads);
  visual_bins_kernel<Storage><<<blocks, kThreads, 0, stream>>>(job);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_visual_bins(const VisualBinsJob& job, cudaStream_t stream) {
  return with_storage_type(job.dtype,
                           [&](auto* type) { return launch_typed<storage_of<decltype(type)>>(job, stream); });
}

}  // namespace ringviz::gpu
