#include "gpu/backend/timed_round.h"

#include <algorithm>
#include <vector>

#include <cuda_runtime.h>

#include "gpu/device/cuda_check.h"

namespace ringviz::gpu {

namespace {

// A copy of every (rank, slot) the round reads and writes, taken on the owner's stream and
// waited for: a plain device-to-device cudaMemcpy would not be ordered with the non-blocking
// rank streams.
std::vector<DeviceMemory> stage_reads(RankResources& resources, const RoundPlan& plan) {
  const CollectiveShape& shape = resources.shape();
  const std::size_t element = dtype_size(shape.dtype);
  std::vector<DeviceMemory> copies;
  for (const RankSlot& read : plan.staged_reads()) {
    const Slot& slot = shape.layout[read.slot];
    const std::size_t bytes = static_cast<std::size_t>(slot.count) * element;
    CudaRank& owner = resources.rank(read.rank);
    const int ordinal = resources.ordinal_of(owner);
    DeviceGuard guard(ordinal);
    DeviceMemory& copy = copies.emplace_back(DeviceMemory::allocate_or_throw(ordinal, bytes, "staging a slot"));
    check_cuda(cudaMemcpyAsync(copy.data(), owner.buffer.data() + static_cast<std::size_t>(slot.offset) * element,
                               bytes, cudaMemcpyDeviceToDevice, owner.stream.get()),
               "staging a slot");
    check_cuda(cudaStreamSynchronize(owner.stream.get()), "staging a slot");
  }
  return copies;
}

}  // namespace

void submit_timed_round(RankResources& resources, RoundSubmitter& submitter, const RoundPlan& plan) {
  submitter.begin();
  const std::vector<DeviceMemory> staged = stage_reads(resources, plan);
  for (CudaRank& rank : resources.ranks()) rank.timed = false;
  for (CudaDevice& device : resources.devices()) {
    DeviceGuard guard(device.info.index);
    check_cuda(cudaEventRecord(device.round_start.get(), device.control.get()), "timing a round");
  }
  submitter.enqueue(plan, 0, 1, true, staged);
  resources.synchronize();
  // The staged copies are freed here, after the round that read them has finished.
}

double timed_round_microseconds(RankResources& resources) {
  double longest_ms = 0;
  bool any = false;
  for (CudaRank& rank : resources.ranks()) {
    if (!rank.timed) continue;
    DeviceGuard guard(resources.ordinal_of(rank));
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, resources.device_of(rank).round_start.get(), rank.finished.get()),
               "reading a round's time");
    longest_ms = std::max(longest_ms, static_cast<double>(ms));
    any = true;
  }
  return any ? longest_ms * 1000.0 : 0.0;
}

}  // namespace ringviz::gpu
