#include "gpu/nccl/nccl_rank_engine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "gpu/backend/cuda_owners.h"
#include "gpu/device/cuda_check.h"
#include "gpu/kernels/slot_kernels.h"
#include "gpu/nccl/nccl_library.h"

namespace ringviz::gpu {

namespace {

// Staging areas start on this boundary, so the reduce kernels keep their 16-byte loads.
constexpr std::size_t kStagingAlignBytes = 256;

std::size_t aligned(std::size_t bytes) {
  return (bytes + kStagingAlignBytes - 1) / kStagingAlignBytes * kStagingAlignBytes;
}

std::string gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GB", bytes / 1e9);
  return text;
}

// One plain copy that nothing divides lands straight in the slot: no staging, no second pass.
bool receives_in_place(const RoundPlan& plan, const PlannedDestination& destination) {
  return destination.transfer_count == 1 && !destination.divides_by_ranks &&
         plan.transfers_into(destination)[0].transfer.kind == TransferKind::copy;
}

// Transfers into `rank` this round.
std::size_t plan_arrivals(const RoundPlan& plan, int rank) {
  std::size_t arrivals = 0;
  for (const PlannedDestination& destination : plan.destinations_of(rank)) arrivals += destination.transfer_count;
  return arrivals;
}

}  // namespace

NcclLibraryState nccl_library_state() {
  const nccl::Library& api = nccl::library();
  return {api.error.empty(), api.found, api.error};
}

NcclUniqueIdBytes make_nccl_unique_id() {
  const nccl::Library& api = nccl::library();
  if (!api.error.empty()) throw CudaError(api.error);
  nccl::UniqueId id{};
  nccl::check(api.get_unique_id(&id), "making a communicator id");
  NcclUniqueIdBytes bytes{};
  std::memcpy(bytes.data(), id.internal, bytes.size());
  return bytes;
}

struct NcclRankEngine::State {
  int device = 0;
  int ranks = 0;
  int rank = 0;
  int multiprocessors = 1;
  std::string device_name;
  nccl::Comm comm = nullptr;
  CudaStream stream;
  CollectiveShape shape;
  DeviceMemory buffer;
  DeviceMemory staging;        // one area per staged arrival of the round
  DeviceMemory staged_copies;  // this rank's slots read and written in one round
  // Per transfer into this rank, in fold order: its area's offset in `staging`.
  std::vector<std::size_t> staging_offsets;
  // Per RoundPlan::staged_reads() entry of this rank: its offset in `staged_copies`.
  std::vector<std::size_t> staged_offsets;

  std::size_t element_bytes() const { return dtype_size(shape.dtype); }
  std::size_t slot_bytes(int slot) const {
    return static_cast<std::size_t>(shape.layout[slot].count) * element_bytes();
  }
  std::byte* slot_data(int slot) const {
    return buffer.data() + static_cast<std::size_t>(shape.layout[slot].offset) * element_bytes();
  }

  // cudaMalloc with the out-of-memory sentence of the CUDA backend, naming what this rank
  // needs against what its GPU has free.
  void allocate(DeviceMemory& memory, std::size_t bytes, std::size_t needed_in_all) {
    if (memory.size() >= bytes) return;
    if (memory.allocate(device, bytes) == cudaSuccess) return;
    cudaGetLastError();  // out of memory is not sticky
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    cudaGetLastError();
    throw CudaError("CUDA: out of memory on GPU " + std::to_string(device) + " (" + device_name +
                    "): rank " + std::to_string(rank) + " needs " +
                    gigabytes(static_cast<double>(needed_in_all)) + " but " +
                    gigabytes(static_cast<double>(free_bytes)) + " of " +
                    gigabytes(static_cast<double>(total_bytes)) +
                    " is free; choose a smaller --count or start fewer ranks on this GPU");
  }

  void synchronize(const char* what) { check_cuda(cudaStreamSynchronize(stream.get()), what); }
};

NcclRankEngine::NcclRankEngine(int device, int ranks, int rank, const NcclUniqueIdBytes& id)
    : state_(std::make_unique<State>()) {
  const nccl::Library& api = nccl::library();
  if (!api.error.empty()) throw CudaError(api.error);
  State& s = *state_;
  s.device = device;
  s.ranks = ranks;
  s.rank = rank;
  check_cuda(cudaSetDevice(device), [&] { return "selecting GPU " + std::to_string(device); });
  cudaDeviceProp properties{};
  check_cuda(cudaGetDeviceProperties(&properties, device),
             [&] { return "reading the properties of GPU " + std::to_string(device); });
  s.multiprocessors = std::max(properties.multiProcessorCount, 1);
  s.device_name = properties.name;
  s.stream = CudaStream::create_non_blocking(device, "creating the NCCL rank's stream");
  // NCCL's own collectives (--iters) are the ring's baseline, as in `ringviz bench`; a
  // user's NCCL_ALGO wins. NCCL reads it when the communicator is made.
  setenv("NCCL_ALGO", "Ring", 0);
  nccl::UniqueId unique{};
  std::memcpy(unique.internal, id.data(), id.size());
  nccl::check(api.comm_init_rank(&s.comm, ranks, unique, rank), "joining the communicator");
}

NcclRankEngine::~NcclRankEngine() {
  State& s = *state_;
  if (!s.comm) return;
  QuietDeviceGuard guard(s.device);
  cudaStreamSynchronize(s.stream.get());
  nccl::library().comm_destroy(s.comm);
  cudaGetLastError();
}

int NcclRankEngine::device() const { return state_->device; }
int NcclRankEngine::rank() const { return state_->rank; }
int NcclRankEngine::ranks() const { return state_->ranks; }

void NcclRankEngine::load(const CollectiveShape& shape, const ByteBuffer& initial) {
  State& s = *state_;
  DeviceGuard guard(s.device);
  s.shape = shape;
  const std::size_t bytes = static_cast<std::size_t>(shape.layout.elements_per_rank) * s.element_bytes();
  if (initial.size() != bytes) throw CudaError("NCCL rank: the initial buffer does not match the collective's shape");
  s.buffer.reset();
  s.allocate(s.buffer, bytes, bytes);
  check_cuda(cudaMemcpy(s.buffer.data(), initial.data(), bytes, cudaMemcpyHostToDevice),
             "copying the rank's initial buffer to its GPU");
}

void NcclRankEngine::post(const RoundPlan& plan, const RankExchange& exchange) {
  State& s = *state_;
  const nccl::Library& api = nccl::library();
  DeviceGuard guard(s.device);
  const std::size_t buffer_bytes = s.buffer.size();

  if (exchange.receives.size() != plan_arrivals(plan, s.rank))
    throw CudaError("NCCL rank: the exchange was not derived from this round's plan");
  // Slots of this rank that a peer reads while this rank writes them: copied first.
  s.staged_offsets.assign(plan.staged_reads().size(), 0);
  std::size_t staged_bytes = 0;
  for (std::size_t i = 0; i < plan.staged_reads().size(); ++i)
    if (plan.staged_reads()[i].rank == s.rank) {
      s.staged_offsets[i] = staged_bytes;
      staged_bytes += aligned(s.slot_bytes(plan.staged_reads()[i].slot));
    }
  // One area per arrival that is folded rather than received in place.
  s.staging_offsets.clear();
  std::size_t staging_bytes = 0;
  for (const PlannedDestination& destination : plan.destinations_of(s.rank))
    for (std::size_t t = 0; t < destination.transfer_count; ++t) {
      s.staging_offsets.push_back(staging_bytes);
      if (!receives_in_place(plan, destination)) staging_bytes += aligned(s.slot_bytes(destination.slot));
    }
  s.allocate(s.staged_copies, staged_bytes, buffer_bytes + staged_bytes + staging_bytes);
  s.allocate(s.staging, staging_bytes, buffer_bytes + staged_bytes + staging_bytes);

  for (std::size_t i = 0; i < plan.staged_reads().size(); ++i) {
    const RankSlot& read = plan.staged_reads()[i];
    if (read.rank != s.rank || s.slot_bytes(read.slot) == 0) continue;
    check_cuda(cudaMemcpyAsync(s.staged_copies.data() + s.staged_offsets[i], s.slot_data(read.slot),
                               s.slot_bytes(read.slot), cudaMemcpyDeviceToDevice, s.stream.get()),
               "copying a slot aside before the round");
  }

  // Empty slots are skipped on both ends alike: both derive them from the same layout.
  nccl::check(api.group_start(), "starting the round's group");
  std::size_t arrival = 0;
  for (const PlannedDestination& destination : plan.destinations_of(s.rank)) {
    const bool in_place = receives_in_place(plan, destination);
    for (std::size_t t = 0; t < destination.transfer_count; ++t, ++arrival) {
      const ExchangeReceive& receive = exchange.receives[arrival];
      const std::size_t bytes = s.slot_bytes(receive.slot);
      if (bytes == 0) continue;
      std::byte* target = in_place ? s.slot_data(destination.slot) : s.staging.data() + s.staging_offsets[arrival];
      nccl::check(api.recv(target, bytes, nccl::DataType::uint8, receive.peer, s.comm, s.stream.get()), "ncclRecv");
    }
  }
  for (const ExchangeSend& send : exchange.sends) {
    const std::size_t bytes = s.slot_bytes(send.source_slot);
    if (bytes == 0) continue;
    const std::byte* source =
        send.staged_read == PlannedTransfer::kReadsLiveSlot
            ? s.slot_data(send.source_slot)
            : s.staged_copies.data() + s.staged_offsets[static_cast<std::size_t>(send.staged_read)];
    nccl::check(api.send(source, bytes, nccl::DataType::uint8, send.peer, s.comm, s.stream.get()), "ncclSend");
  }
  nccl::check(api.group_end(), "ending the round's group");
}

void NcclRankEngine::wait_for_arrivals() {
  DeviceGuard guard(state_->device);
  state_->synchronize("waiting for the round's NCCL transfers");
}

void NcclRankEngine::fold(const RoundPlan& plan) {
  State& s = *state_;
  DeviceGuard guard(s.device);
  std::size_t arrival = 0;
  for (const PlannedDestination& destination : plan.destinations_of(s.rank)) {
    const auto transfers = plan.transfers_into(destination);
    if (receives_in_place(plan, destination)) {
      arrival += transfers.size();
      continue;
    }
    const std::int64_t count = s.shape.layout[destination.slot].count;
    std::byte* local = s.slot_data(destination.slot);
    for (std::size_t t = 0; t < transfers.size(); ++t) {
      const std::byte* incoming = s.staging.data() + s.staging_offsets[arrival++];
      if (count == 0) continue;
      if (transfers[t].transfer.kind == TransferKind::copy) {
        check_cuda(cudaMemcpyAsync(local, incoming, s.slot_bytes(destination.slot), cudaMemcpyDeviceToDevice,
                                   s.stream.get()),
                   "copying an arrival into its slot");
        continue;
      }
      // avg divides in the kernel of the last transfer when that is a reduce, as the CUDA
      // backend does.
      const int divide_by = t + 1 == transfers.size() && destination.divides_by_ranks ? s.shape.ranks : 0;
      check_cuda(launch_reduce_slot(s.shape.dtype, s.shape.reduce, incoming, local, count, divide_by,
                                    s.stream.get(), s.multiprocessors),
                 "folding an arrival into its slot");
    }
    if (destination.divides_by_ranks && count > 0 && transfers.back().transfer.kind == TransferKind::copy)
      check_cuda(launch_divide_slot(s.shape.dtype, local, count, s.shape.ranks, s.stream.get(), s.multiprocessors),
                 "dividing a completed slot");
  }
  s.synchronize("folding the round's arrivals");
}

void NcclRankEngine::fetch(ByteBuffer& buffer) {
  State& s = *state_;
  DeviceGuard guard(s.device);
  s.synchronize("waiting for the rank's GPU");
  buffer.resize(s.buffer.size());
  check_cuda(cudaMemcpy(buffer.data(), s.buffer.data(), buffer.size(), cudaMemcpyDeviceToHost),
             "copying the rank's buffer to the host");
}

NcclCollectiveRun NcclRankEngine::run_collective(Op op, DType dtype, ReduceOp reduce, const ByteBuffer& input,
                                                 int iterations, const std::function<void()>& barrier) {
  State& s = *state_;
  DeviceGuard guard(s.device);
  const std::size_t element = dtype_size(dtype);
  const nccl::CollectiveCounts counts =
      nccl::collective_counts(op, static_cast<std::int64_t>(input.size() / element), s.ranks);
  const auto what = [&] { return "NCCL collective buffers on GPU " + std::to_string(s.device); };
  DeviceMemory send = DeviceMemory::allocate_or_throw(s.device, counts.send * element, what);
  DeviceMemory receive = DeviceMemory::allocate_or_throw(s.device, counts.receive * element, what);
  check_cuda(cudaMemcpy(send.data(), input.data(), counts.send * element, cudaMemcpyHostToDevice),
             "copying the collective's input to the GPU");
  const auto run_once = [&] {
    nccl::post_collective(op, dtype, reduce, counts, send.data(), receive.data(), s.comm, s.stream.get());
  };

  NcclCollectiveRun run;
  run_once();
  s.synchronize("waiting for NCCL's collective");
  run.output.resize(counts.receive * element);
  check_cuda(cudaMemcpy(run.output.data(), receive.data(), run.output.size(), cudaMemcpyDeviceToHost),
             "copying NCCL's result to the host");
  // Host wall clock around back-to-back collectives, as nccl-tests measures.
  const int runs = std::max(iterations, 1);
  barrier();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) run_once();
  s.synchronize("waiting for NCCL's collective");
  barrier();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / runs;
  return run;
}

}  // namespace ringviz::gpu
