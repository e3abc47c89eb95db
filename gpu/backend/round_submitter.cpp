#include "gpu/backend/round_submitter.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include <cuda_runtime.h>

#include "gpu/device/cuda_check.h"
#include "gpu/kernels/slot_kernels.h"

namespace ringviz::gpu {

namespace {

// Chunk boundaries fall on multiples of this many elements, so every chunk of a slot starts
// as aligned as the slot itself and the kernels keep their 16-byte path.
constexpr std::int64_t kChunkAlignElements = 64;

}  // namespace

std::int64_t chunk_boundary(std::int64_t count, int chunk, int chunks) {
  if (chunk >= chunks) return count;
  const std::int64_t even = count * chunk / chunks;
  return std::min(count, even - even % kChunkAlignElements);
}

void RoundSubmitter::enqueue(const RoundPlan& plan, int chunk, int chunks, bool timed,
                             std::span<const DeviceMemory> staged_copies) {
  // All waits come before any event of this round is recorded: a receiver must wait for a
  // sender's previous round, not for the part of this round the sender does itself.
  wait_before_writing(plan, timed);
  for (int d = 0; d < plan.ranks(); ++d) {
    if (plan.destinations_of(d).empty()) continue;
    CudaRank& receiver = resources_.rank(d);
    DeviceGuard guard(resources_.ordinal_of(receiver));
    if (!pull_slots(plan, d, chunk, chunks, staged_copies)) continue;
    if (timed) {
      check_cuda(cudaEventRecord(receiver.finished.get(), receiver.stream.get()), "timing a round");
      receiver.timed = true;
    }
    check_cuda(cudaEventRecord(receiver.done.get(), receiver.stream.get()), "ordering a round");
    ordering_.after_writing(d, plan.sources_of(d));
  }
}

void RoundSubmitter::wait_before_writing(const RoundPlan& plan, bool timed) {
  for (int d = 0; d < plan.ranks(); ++d) {
    if (plan.destinations_of(d).empty()) continue;
    CudaRank& receiver = resources_.rank(d);
    DeviceGuard guard(resources_.ordinal_of(receiver));
    if (timed)
      check_cuda(cudaStreamWaitEvent(receiver.stream.get(), resources_.device_of(receiver).round_start.get(), 0),
                 "ordering a round");
    ordering_.before_writing(d, plan.sources_of(d), [&](int other) {
      check_cuda(cudaStreamWaitEvent(receiver.stream.get(), resources_.rank(other).done.get(), 0),
                 "ordering a round");
    });
  }
}

bool RoundSubmitter::pull_slots(const RoundPlan& plan, int receiver, int chunk, int chunks,
                                std::span<const DeviceMemory> staged_copies) {
  const CollectiveShape& shape = resources_.shape();
  CudaRank& target = resources_.rank(receiver);
  bool worked = false;
  for (const PlannedDestination& destination : plan.destinations_of(receiver)) {
    const Slot& slot = shape.layout[destination.slot];
    const std::int64_t begin = chunk_boundary(slot.count, chunk, chunks);
    const std::int64_t end = chunk_boundary(slot.count, chunk + 1, chunks);
    if (end <= begin) continue;
    worked = true;
    const auto transfers = plan.transfers_into(destination);
    for (std::size_t t = 0; t < transfers.size(); ++t)
      transfer(transfers[t], destination, t + 1 == transfers.size(), begin, end - begin, staged_copies);
    // avg divides once all contributions are in; a last reduce did it in its own kernel, a
    // last copy needs the division on its own.
    if (destination.divides_by_ranks && transfers.back().transfer.kind == TransferKind::copy) {
      std::byte* local = target.buffer.data() +
                         static_cast<std::size_t>(slot.offset + begin) * dtype_size(shape.dtype);
      check_cuda(launch_divide_slot(shape.dtype, local, end - begin, shape.ranks, target.stream.get(),
                                    resources_.device_of(target).info.multiprocessors),
                 [&] { return "avg division on rank " + std::to_string(receiver); });
    }
  }
  return worked;
}

void RoundSubmitter::transfer(const PlannedTransfer& planned, const PlannedDestination& destination,
                              bool last, std::int64_t begin, std::int64_t count,
                              std::span<const DeviceMemory> staged_copies) {
  const Transfer& transfer = planned.transfer;
  const CollectiveShape& shape = resources_.shape();
  const std::size_t element = dtype_size(shape.dtype);
  const Slot& slot = shape.layout[destination.slot];
  CudaRank& receiver = resources_.rank(destination.rank);
  const CudaRank& sender = resources_.rank(transfer.src);
  const int receiver_ordinal = resources_.ordinal_of(receiver);
  const int sender_ordinal = resources_.ordinal_of(sender);
  const cudaStream_t stream = receiver.stream.get();
  const std::size_t bytes = static_cast<std::size_t>(count) * element;
  std::byte* local = receiver.buffer.data() + static_cast<std::size_t>(slot.offset + begin) * element;
  const std::byte* incoming =
      planned.reads_staged_copy()
          ? staged_copies[static_cast<std::size_t>(planned.staged_read)].data() +
                static_cast<std::size_t>(begin) * element
          : sender.buffer.data() +
                static_cast<std::size_t>(shape.layout[transfer.source_slot()].offset + begin) * element;
  const auto what = [&] {
    return std::string(transfer_kind_name(transfer.kind)) + " from rank " + std::to_string(transfer.src) +
           " to rank " + std::to_string(destination.rank) + ", slot " + std::to_string(transfer.source_slot()) +
           " -> " + std::to_string(transfer.slot);
  };
  if (transfer.kind == TransferKind::copy) {
    if (sender.device == receiver.device)
      check_cuda(cudaMemcpyAsync(local, incoming, bytes, cudaMemcpyDeviceToDevice, stream), what);
    else
      check_cuda(cudaMemcpyPeerAsync(local, receiver_ordinal, incoming, sender_ordinal, bytes, stream), what);
    return;
  }
  if (!resources_.reads_directly(destination.rank, transfer.src)) {
    // No peer access: bring the slot over first (the driver stages it through the host), at
    // the receiver's own alignment so the kernel keeps its vector path.
    std::byte* landing = receiver.scratch.data() + reinterpret_cast<std::uintptr_t>(local) % 16;
    check_cuda(cudaMemcpyPeerAsync(landing, receiver_ordinal, incoming, sender_ordinal, bytes, stream), what);
    incoming = landing;
  }
  const int divide_by = last && destination.divides_by_ranks ? shape.ranks : 0;
  check_cuda(launch_reduce_slot(shape.dtype, shape.reduce, incoming, local, count, divide_by, stream,
                                resources_.device_of(receiver).info.multiprocessors),
             what);
}

}  // namespace ringviz::gpu
