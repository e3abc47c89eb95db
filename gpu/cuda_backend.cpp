#include "gpu/cuda_backend.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>

#include <cuda_runtime.h>

#include "gpu/cuda_check.h"
#include "gpu/slot_kernels.h"

namespace ringviz::gpu {

namespace {

// Upper bound on chunks per slot: past this, launch gaps cost more than L2 reuse saves.
constexpr int kMaxChunks = 64;
// Chunk boundaries fall on multiples of this many elements, so every chunk of a slot starts
// as aligned as the slot itself and the kernels keep their 16-byte path.
constexpr std::int64_t kChunkAlignElements = 64;

std::string gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GB", bytes / 1e9);
  return text;
}

bool same_transfer(const Transfer& a, const Transfer& b) {
  return a.src == b.src && a.dst == b.dst && a.slot == b.slot && a.kind == b.kind &&
         a.completes_slot == b.completes_slot;
}

bool same_rounds(const std::vector<Round>& a, const std::vector<Round>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].transfers.size() != b[i].transfers.size()) return false;
    for (std::size_t t = 0; t < a[i].transfers.size(); ++t)
      if (!same_transfer(a[i].transfers[t], b[i].transfers[t])) return false;
  }
  return true;
}

// All transfers that land in one (rank, slot), in schedule order: they are applied in that
// order, as the CPU backend does, so several arrivals in one round stay deterministic.
struct Destination {
  int rank = 0;
  int slot = 0;
  std::vector<Transfer> transfers;
  bool completes = false;
};

struct RoundPlan {
  std::vector<Destination> destinations;
  // Per receiving rank: its destinations (indices above) and the ranks it reads from.
  std::vector<std::vector<std::size_t>> destinations_of;
  std::vector<std::vector<int>> sources_of;
  // (rank, slot) pairs read and written in the same round; the ring never has any.
  std::vector<std::pair<int, int>> hazards;
};

RoundPlan plan_round(const Round& round, int ranks) {
  RoundPlan plan;
  plan.destinations_of.resize(static_cast<std::size_t>(ranks));
  plan.sources_of.resize(static_cast<std::size_t>(ranks));
  std::map<std::pair<int, int>, std::size_t> index_of;
  for (const Transfer& transfer : round.transfers) {
    auto [it, added] = index_of.emplace(std::pair{transfer.dst, transfer.slot}, plan.destinations.size());
    if (added) {
      plan.destinations.push_back({transfer.dst, transfer.slot, {}, false});
      plan.destinations_of[static_cast<std::size_t>(transfer.dst)].push_back(it->second);
    }
    Destination& destination = plan.destinations[it->second];
    destination.transfers.push_back(transfer);
    destination.completes = destination.completes || transfer.completes_slot;
    auto& sources = plan.sources_of[static_cast<std::size_t>(transfer.dst)];
    if (std::find(sources.begin(), sources.end(), transfer.src) == sources.end())
      sources.push_back(transfer.src);
  }
  for (const Transfer& transfer : round.transfers) {
    const std::pair<int, int> read{transfer.src, transfer.slot};
    if (index_of.count(read) &&
        std::find(plan.hazards.begin(), plan.hazards.end(), read) == plan.hazards.end())
      plan.hazards.push_back(read);
  }
  return plan;
}

// Element k * count / chunks rounded down to the alignment; the last boundary is the count.
std::int64_t chunk_boundary(std::int64_t count, int chunk, int chunks) {
  if (chunk >= chunks) return count;
  const std::int64_t even = count * chunk / chunks;
  return std::min(count, even - even % kChunkAlignElements);
}

}  // namespace

CudaBackendOptions CudaBackendOptions::from_environment() {
  CudaBackendOptions options;
  if (const char* chunk = std::getenv("RINGVIZ_CUDA_CHUNK_BYTES"); chunk && *chunk) {
    char* end = nullptr;
    const unsigned long long value = std::strtoull(chunk, &end, 10);
    if (end && *end == '\0') options.pipeline_chunk_bytes = value;
  }
  if (const char* graphs = std::getenv("RINGVIZ_CUDA_GRAPHS"); graphs && std::string(graphs) == "0")
    options.use_graphs = false;
  return options;
}

struct CudaBackend::Impl {
  struct Device {
    DeviceInfo info;
    cudaStream_t control = nullptr;     // where a round's timing starts and graphs launch
    cudaEvent_t round_start = nullptr;  // timing: recorded when a timed round is submitted
  };
  struct Rank {
    int device = 0;  // index into devices
    std::byte* buffer = nullptr;
    std::uint64_t buffer_bytes = 0;
    // Landing area for a slot from a GPU this rank's GPU cannot read directly.
    std::byte* scratch = nullptr;
    std::uint64_t scratch_bytes = 0;
    cudaStream_t stream = nullptr;
    cudaEvent_t done = nullptr;      // orders this rank's work before other ranks' next work
    cudaEvent_t finished = nullptr;  // timing: the end of this rank's part of a timed round
    bool timed = false;              // `finished` belongs to the last timed round
  };

  CudaBackendOptions options;
  std::vector<Device> devices;
  std::vector<DeviceInfo> device_infos;
  std::vector<std::vector<bool>> peer_enabled;  // [reader][owner], indices into devices
  cudaEvent_t fork = nullptr;                   // on devices[0]: starts a multi-round submission

  CollectiveShape shape;
  bool allocated = false;
  std::vector<Rank> ranks;
  std::vector<Round> pending;

  // Dependency bookkeeping inside one submission (every submission starts with idle streams).
  std::vector<bool> done_recorded;
  std::vector<std::vector<int>> readers_since_last_work;

  std::vector<Round> graph_rounds;
  int graph_chunks = 0;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t graph_exec = nullptr;
  bool graphs_refused = false;

  std::optional<double> last_round_us;
  bool timing_pending = false;
  std::string last_submission = "nothing submitted yet";

  ~Impl() { release_everything(); }

  std::size_t element_size() const { return dtype_size(shape.dtype); }
  int ordinal(int device_index) const { return devices[static_cast<std::size_t>(device_index)].info.index; }
  Rank& rank(int r) { return ranks[static_cast<std::size_t>(r)]; }
  int multiprocessors_of(const Rank& r) const {
    return devices[static_cast<std::size_t>(r.device)].info.multiprocessors;
  }
  bool reads_directly(int reader, int owner) const {
    const int a = ranks[static_cast<std::size_t>(reader)].device;
    const int b = ranks[static_cast<std::size_t>(owner)].device;
    return a == b || peer_enabled[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
  }

  // ---- setup and teardown ----

  void open_devices(const std::vector<int>& wanted) {
    const CudaProbe& probe = probe_cuda();
    if (!probe.usable) throw CudaError(probe.reason);
    std::vector<int> ordinals = wanted;
    if (ordinals.empty())
      for (const DeviceInfo& info : probe.devices) ordinals.push_back(info.index);
    for (std::size_t i = 0; i < ordinals.size(); ++i) {
      const int ordinal = ordinals[i];
      if (ordinal < 0 || ordinal >= static_cast<int>(probe.devices.size()))
        throw CudaError("CUDA: there is no GPU " + std::to_string(ordinal) + " (" +
                        std::to_string(probe.devices.size()) + " visible)");
      if (std::find(ordinals.begin(), ordinals.begin() + static_cast<std::ptrdiff_t>(i), ordinal) !=
          ordinals.begin() + static_cast<std::ptrdiff_t>(i))
        throw CudaError("CUDA: GPU " + std::to_string(ordinal) + " is listed twice");
      Device device;
      device.info = probe.devices[static_cast<std::size_t>(ordinal)];
      devices.push_back(device);
      DeviceGuard guard(ordinal);
      Device& added = devices.back();
      check_cuda(cudaStreamCreateWithFlags(&added.control, cudaStreamNonBlocking),
                 "creating a stream on GPU " + std::to_string(ordinal));
      check_cuda(cudaEventCreate(&added.round_start), "creating an event on GPU " + std::to_string(ordinal));
      device_infos.push_back(added.info);
    }
    const std::size_t k = devices.size();
    peer_enabled.assign(k, std::vector<bool>(k, false));
    for (std::size_t a = 0; a < k; ++a)
      for (std::size_t b = 0; b < k; ++b) {
        const int reader = devices[a].info.index;
        const int owner = devices[b].info.index;
        if (a == b || !probe.can_access_peer[static_cast<std::size_t>(reader)][static_cast<std::size_t>(owner)])
          continue;
        DeviceGuard guard(reader);
        const cudaError_t status = cudaDeviceEnablePeerAccess(owner, 0);
        // Already enabled (by an earlier backend in this process) is as good as enabled now.
        peer_enabled[a][b] = status == cudaSuccess || status == cudaErrorPeerAccessAlreadyEnabled;
        cudaGetLastError();
      }
    DeviceGuard guard(devices.front().info.index);
    check_cuda(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming), "creating an event");
  }

  void destroy_graph() {
    if (graph_exec) cudaGraphExecDestroy(graph_exec);
    if (graph) cudaGraphDestroy(graph);
    graph_exec = nullptr;
    graph = nullptr;
    graph_rounds.clear();
  }

  void free_buffers() {
    destroy_graph();
    for (Rank& r : ranks) {
      DeviceGuard guard(ordinal(r.device));
      if (r.buffer) cudaFree(r.buffer);
      if (r.scratch) cudaFree(r.scratch);
      r.buffer = r.scratch = nullptr;
      r.buffer_bytes = r.scratch_bytes = 0;
    }
    allocated = false;
  }

  void destroy_ranks() {
    free_buffers();
    for (Rank& r : ranks) {
      DeviceGuard guard(ordinal(r.device));
      if (r.stream) cudaStreamDestroy(r.stream);
      if (r.done) cudaEventDestroy(r.done);
      if (r.finished) cudaEventDestroy(r.finished);
    }
    ranks.clear();
  }

  void release_everything() noexcept {
    try {
      for (Rank& r : ranks)
        if (r.stream) cudaStreamSynchronize(r.stream);
      destroy_ranks();
      for (Device& device : devices) {
        DeviceGuard guard(device.info.index);
        if (device.control) cudaStreamDestroy(device.control);
        if (device.round_start) cudaEventDestroy(device.round_start);
      }
      if (fork) cudaEventDestroy(fork);
    } catch (...) {
      // Teardown of a lost context: the driver reclaims everything when the process ends.
    }
    devices.clear();
    fork = nullptr;
    cudaGetLastError();
  }

  void create_ranks(int count) {
    destroy_ranks();
    ranks.resize(static_cast<std::size_t>(count));
    const int k = static_cast<int>(devices.size());
    for (int r = 0; r < count; ++r) {
      Rank& rank_state = rank(r);
      rank_state.device = r % k;
      DeviceGuard guard(ordinal(rank_state.device));
      const std::string where = "setting up rank " + std::to_string(r) + " on GPU " +
                                std::to_string(ordinal(rank_state.device));
      check_cuda(cudaStreamCreateWithFlags(&rank_state.stream, cudaStreamNonBlocking), where);
      check_cuda(cudaEventCreateWithFlags(&rank_state.done, cudaEventDisableTiming), where);
      check_cuda(cudaEventCreate(&rank_state.finished), where);
    }
  }

  [[noreturn]] void throw_out_of_memory(int device_index, std::uint64_t needed, const std::string& what) {
    std::size_t free_bytes = 0, total_bytes = 0;
    {
      DeviceGuard guard(ordinal(device_index));
      cudaMemGetInfo(&free_bytes, &total_bytes);
      cudaGetLastError();
    }
    const DeviceInfo& info = devices[static_cast<std::size_t>(device_index)].info;
    throw CudaError("CUDA: out of memory on GPU " + std::to_string(info.index) + " (" + info.name +
                    "): " + what + " " + gigabytes(static_cast<double>(needed)) + " but " +
                    gigabytes(static_cast<double>(free_bytes)) + " of " +
                    gigabytes(static_cast<double>(total_bytes)) +
                    " is free; choose a smaller --count or fewer --gpus");
  }

  void allocate(const CollectiveShape& wanted) {
    synchronize_streams();
    pending.clear();
    if (static_cast<int>(ranks.size()) != wanted.ranks) create_ranks(wanted.ranks);
    else free_buffers();
    shape = wanted;
    timing_pending = false;
    last_round_us.reset();

    const std::uint64_t element = dtype_size(shape.dtype);
    const std::uint64_t buffer_bytes = static_cast<std::uint64_t>(shape.layout.elements_per_rank) * element;
    std::int64_t largest_slot = 0;
    for (const Slot& slot : shape.layout.slots) largest_slot = std::max(largest_slot, slot.count);
    const std::uint64_t scratch_bytes = static_cast<std::uint64_t>(largest_slot) * element + 16;

    // Where a rank's GPU cannot read some other rank's GPU, slots from there land in scratch.
    std::vector<bool> needs_scratch(ranks.size(), false);
    for (int reader = 0; reader < shape.ranks; ++reader)
      for (int owner = 0; owner < shape.ranks; ++owner)
        if (!reads_directly(reader, owner)) needs_scratch[static_cast<std::size_t>(reader)] = true;

    // Refuse before allocating anything when a GPU clearly lacks the room.
    std::vector<std::uint64_t> needed(devices.size(), 0);
    std::vector<int> ranks_on(devices.size(), 0);
    for (int r = 0; r < shape.ranks; ++r) {
      const auto d = static_cast<std::size_t>(rank(r).device);
      needed[d] += buffer_bytes + (needs_scratch[static_cast<std::size_t>(r)] ? scratch_bytes : 0);
      ++ranks_on[d];
    }
    const auto describe = [&](std::size_t d) {
      return "the " + std::to_string(ranks_on[d]) +
             (ranks_on[d] == 1 ? " rank placed there needs" : " ranks placed there need");
    };
    for (std::size_t d = 0; d < devices.size(); ++d) {
      if (needed[d] == 0) continue;
      DeviceGuard guard(devices[d].info.index);
      std::size_t free_bytes = 0, total_bytes = 0;
      check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes),
                 "reading free memory on GPU " + std::to_string(devices[d].info.index));
      if (needed[d] > free_bytes) throw_out_of_memory(static_cast<int>(d), needed[d], describe(d));
    }
    for (int r = 0; r < shape.ranks; ++r) {
      Rank& rank_state = rank(r);
      DeviceGuard guard(ordinal(rank_state.device));
      void* memory = nullptr;
      if (cudaMalloc(&memory, std::max<std::uint64_t>(buffer_bytes, 1)) != cudaSuccess) {
        cudaGetLastError();  // out of memory is not sticky: clear it and give back what we took
        free_buffers();
        throw_out_of_memory(rank_state.device, needed[static_cast<std::size_t>(rank_state.device)],
                            describe(static_cast<std::size_t>(rank_state.device)));
      }
      rank_state.buffer = static_cast<std::byte*>(memory);
      rank_state.buffer_bytes = buffer_bytes;
      if (needs_scratch[static_cast<std::size_t>(r)]) {
        if (cudaMalloc(&memory, scratch_bytes) != cudaSuccess) {
          cudaGetLastError();
          free_buffers();
          throw_out_of_memory(rank_state.device, needed[static_cast<std::size_t>(rank_state.device)],
                              describe(static_cast<std::size_t>(rank_state.device)));
        }
        rank_state.scratch = static_cast<std::byte*>(memory);
        rank_state.scratch_bytes = scratch_bytes;
      }
    }
    allocated = true;
  }

  void require_allocated(const char* what) const {
    if (!allocated) throw CudaError(std::string("CUDA backend: ") + what + " before load()");
  }

  // ---- host synchronisation and copies ----

  void synchronize_streams() {
    for (Rank& r : ranks) {
      DeviceGuard guard(ordinal(r.device));
      check_cuda(cudaStreamSynchronize(r.stream),
                 "waiting for rank " + std::to_string(&r - ranks.data()) + " on GPU " +
                     std::to_string(ordinal(r.device)));
    }
    for (Device& device : devices) {
      DeviceGuard guard(device.info.index);
      check_cuda(cudaStreamSynchronize(device.control),
                 "waiting for GPU " + std::to_string(device.info.index));
    }
  }

  void check_state(const BufferState& state) const {
    if (state.dtype != shape.dtype || state.elements_per_rank != shape.layout.elements_per_rank ||
        static_cast<int>(state.ranks.size()) != shape.ranks)
      throw CudaError("CUDA backend: store() got buffers of another shape than load()");
  }

  void upload(const BufferState& state) {
    check_state(state);
    const std::size_t bytes = state.bytes_per_rank();
    for (int r = 0; r < shape.ranks; ++r) {
      Rank& rank_state = rank(r);
      if (bytes == 0) continue;
      DeviceGuard guard(ordinal(rank_state.device));
      // On the rank's own stream: a pageable upload may return before its DMA ends, and only
      // the stream knows when it has.
      check_cuda(cudaMemcpyAsync(rank_state.buffer, state.ranks[static_cast<std::size_t>(r)].data(),
                                 bytes, cudaMemcpyHostToDevice, rank_state.stream),
                 "uploading rank " + std::to_string(r) + "'s buffer");
    }
    synchronize_streams();
  }

  void download(BufferState& state) {
    state.dtype = shape.dtype;
    state.elements_per_rank = shape.layout.elements_per_rank;
    state.ranks.resize(static_cast<std::size_t>(shape.ranks));
    const std::size_t bytes = state.bytes_per_rank();
    for (int r = 0; r < shape.ranks; ++r) {
      ByteBuffer& host = state.ranks[static_cast<std::size_t>(r)];
      host.resize(bytes);
      if (bytes == 0) continue;
      Rank& rank_state = rank(r);
      DeviceGuard guard(ordinal(rank_state.device));
      check_cuda(cudaMemcpyAsync(host.data(), rank_state.buffer, bytes, cudaMemcpyDeviceToHost,
                                 rank_state.stream),
                 "downloading rank " + std::to_string(r) + "'s buffer");
    }
    synchronize_streams();
  }

  // ---- submission ----

  void begin_submission() {
    done_recorded.assign(ranks.size(), false);
    readers_since_last_work.assign(ranks.size(), {});
  }

  // One round restricted to chunk `chunk` of `chunks` of every slot. `staged` replaces the
  // source of hazardous (rank, slot) reads with a copy taken before the round.
  void enqueue_round_chunk(const RoundPlan& plan, int chunk, int chunks, bool timed,
                           const std::map<std::pair<int, int>, std::byte*>& staged) {
    const std::size_t element = element_size();
    // Phase 1, before any event of this round is recorded: each receiver waits for the
    // senders' previous work (their slots must be final) and for the ranks that read its own
    // slots since it last wrote (they must be done reading before it overwrites).
    for (int d = 0; d < shape.ranks; ++d) {
      if (plan.destinations_of[static_cast<std::size_t>(d)].empty()) continue;
      Rank& receiver = rank(d);
      DeviceGuard guard(ordinal(receiver.device));
      if (timed)
        check_cuda(cudaStreamWaitEvent(receiver.stream,
                                       devices[static_cast<std::size_t>(receiver.device)].round_start, 0),
                   "ordering a round");
      const auto wait_for = [&](int other) {
        if (other == d || !done_recorded[static_cast<std::size_t>(other)]) return;
        check_cuda(cudaStreamWaitEvent(receiver.stream, rank(other).done, 0), "ordering a round");
      };
      for (int source : plan.sources_of[static_cast<std::size_t>(d)]) wait_for(source);
      for (int reader : readers_since_last_work[static_cast<std::size_t>(d)]) wait_for(reader);
      readers_since_last_work[static_cast<std::size_t>(d)].clear();
    }
    // Phase 2: every receiver pulls its slots, on its own stream.
    for (int d = 0; d < shape.ranks; ++d) {
      const auto& mine = plan.destinations_of[static_cast<std::size_t>(d)];
      if (mine.empty()) continue;
      Rank& receiver = rank(d);
      DeviceGuard guard(ordinal(receiver.device));
      const int receiver_ordinal = ordinal(receiver.device);
      bool worked = false;
      for (std::size_t index : mine) {
        const Destination& destination = plan.destinations[index];
        const Slot& slot = shape.layout[destination.slot];
        const std::int64_t begin = chunk_boundary(slot.count, chunk, chunks);
        const std::int64_t end = chunk_boundary(slot.count, chunk + 1, chunks);
        if (end <= begin) continue;
        worked = true;
        const std::int64_t count = end - begin;
        const std::size_t bytes = static_cast<std::size_t>(count) * element;
        std::byte* local = receiver.buffer + static_cast<std::size_t>(slot.offset + begin) * element;
        for (std::size_t t = 0; t < destination.transfers.size(); ++t) {
          const Transfer& transfer = destination.transfers[t];
          Rank& sender = rank(transfer.src);
          const auto staged_copy = staged.find({transfer.src, transfer.slot});
          const std::byte* incoming =
              staged_copy != staged.end()
                  ? staged_copy->second + static_cast<std::size_t>(begin) * element
                  : sender.buffer + static_cast<std::size_t>(slot.offset + begin) * element;
          const std::string what = std::string(transfer_kind_name(transfer.kind)) + " from rank " +
                                   std::to_string(transfer.src) + " to rank " + std::to_string(d) +
                                   ", slot " + std::to_string(transfer.slot);
          const bool same_device = sender.device == receiver.device;
          if (transfer.kind == TransferKind::copy) {
            if (same_device)
              check_cuda(cudaMemcpyAsync(local, incoming, bytes, cudaMemcpyDeviceToDevice, receiver.stream), what);
            else
              check_cuda(cudaMemcpyPeerAsync(local, receiver_ordinal, incoming, ordinal(sender.device),
                                             bytes, receiver.stream),
                         what);
            continue;
          }
          const bool last = t + 1 == destination.transfers.size();
          const int divide_by =
              last && destination.completes && shape.reduce == ReduceOp::avg ? shape.ranks : 0;
          if (!reads_directly(d, transfer.src)) {
            // No peer access: bring the slot over first (the driver stages it through the
            // host), at the receiver's own alignment so the kernel keeps its vector path.
            std::byte* landing = receiver.scratch + reinterpret_cast<std::uintptr_t>(local) % 16;
            check_cuda(cudaMemcpyPeerAsync(landing, receiver_ordinal, incoming, ordinal(sender.device),
                                           bytes, receiver.stream),
                       what);
            incoming = landing;
          }
          check_cuda(launch_reduce_slot(shape.dtype, shape.reduce, incoming, local, count, divide_by,
                                        receiver.stream, multiprocessors_of(receiver)),
                     what);
        }
        // avg divides once all contributions are in; here the last arrival was a copy.
        if (destination.completes && shape.reduce == ReduceOp::avg &&
            destination.transfers.back().kind == TransferKind::copy)
          check_cuda(launch_divide_slot(shape.dtype, local, count, shape.ranks, receiver.stream,
                                        multiprocessors_of(receiver)),
                     "avg division on rank " + std::to_string(d));
      }
      if (!worked) continue;
      if (timed) {
        check_cuda(cudaEventRecord(receiver.finished, receiver.stream), "timing a round");
        receiver.timed = true;
      }
      check_cuda(cudaEventRecord(receiver.done, receiver.stream), "ordering a round");
      done_recorded[static_cast<std::size_t>(d)] = true;
      for (int source : plan.sources_of[static_cast<std::size_t>(d)])
        if (source != d) readers_since_last_work[static_cast<std::size_t>(source)].push_back(d);
    }
  }

  // One round, submitted as is and timed with events from each GPU's round start to the end
  // of the last rank's part on it.
  void run_single(const Round& round) {
    const RoundPlan plan = plan_round(round, shape.ranks);
    begin_submission();
    std::map<std::pair<int, int>, std::byte*> staged;
    const auto free_staged = [&] {
      for (auto& [key, memory] : staged) {
        DeviceGuard guard(ordinal(rank(key.first).device));
        cudaFree(memory);
      }
      staged.clear();
    };
    try {
      // Hazards: copy each such slot before anything writes it (never needed by the ring).
      for (const auto& [owner, slot_index] : plan.hazards) {
        const Slot& slot = shape.layout[slot_index];
        const std::size_t bytes = static_cast<std::size_t>(slot.count) * element_size();
        DeviceGuard guard(ordinal(rank(owner).device));
        void* memory = nullptr;
        check_cuda(cudaMalloc(&memory, std::max<std::size_t>(bytes, 1)), "staging a slot");
        staged[{owner, slot_index}] = static_cast<std::byte*>(memory);
        // On the owner's stream and waited for: a plain device-to-device cudaMemcpy would not
        // be ordered with our non-blocking streams.
        check_cuda(cudaMemcpyAsync(memory,
                                   rank(owner).buffer + static_cast<std::size_t>(slot.offset) * element_size(),
                                   bytes, cudaMemcpyDeviceToDevice, rank(owner).stream),
                   "staging a slot");
        check_cuda(cudaStreamSynchronize(rank(owner).stream), "staging a slot");
      }
      for (Rank& r : ranks) r.timed = false;
      for (Device& device : devices) {
        DeviceGuard guard(device.info.index);
        check_cuda(cudaEventRecord(device.round_start, device.control), "timing a round");
      }
      enqueue_round_chunk(plan, 0, 1, true, staged);
      synchronize_streams();
    } catch (...) {
      free_staged();
      throw;
    }
    free_staged();
    timing_pending = true;
    last_submission = "1 round, one stream per rank";
  }

  int chunks_for(const std::vector<Round>& rounds) const {
    if (options.pipeline_chunk_bytes == 0) return 1;
    std::int64_t largest = 0;
    for (const Round& round : rounds)
      for (const Transfer& transfer : round.transfers)
        largest = std::max(largest, shape.layout[transfer.slot].count);
    const std::uint64_t bytes = static_cast<std::uint64_t>(largest) * element_size();
    const std::uint64_t chunks = (bytes + options.pipeline_chunk_bytes - 1) / options.pipeline_chunk_bytes;
    return static_cast<int>(std::clamp<std::uint64_t>(chunks, 1, kMaxChunks));
  }

  // Every round of `plans`, chunk by chunk, forked from and joined back into GPU 0's control
  // stream, with no host synchronisation anywhere: what a graph captures.
  void enqueue_many(const std::vector<RoundPlan>& plans, int chunks) {
    begin_submission();
    Device& first = devices.front();
    {
      DeviceGuard guard(first.info.index);
      check_cuda(cudaEventRecord(fork, first.control), "starting a submission");
    }
    for (Rank& r : ranks) {
      DeviceGuard guard(ordinal(r.device));
      check_cuda(cudaStreamWaitEvent(r.stream, fork, 0), "starting a submission");
    }
    const std::map<std::pair<int, int>, std::byte*> none;
    // Chunk-major: chunk k goes through every round before chunk k + 1 starts, so the data a
    // round wrote is read by the next round soon after, while it is still in L2.
    for (int chunk = 0; chunk < chunks; ++chunk)
      for (const RoundPlan& plan : plans) enqueue_round_chunk(plan, chunk, chunks, false, none);
    for (Rank& r : ranks) {
      DeviceGuard guard(ordinal(r.device));
      check_cuda(cudaEventRecord(r.done, r.stream), "ending a submission");
    }
    DeviceGuard guard(first.info.index);
    for (Rank& r : ranks)
      check_cuda(cudaStreamWaitEvent(first.control, r.done, 0), "ending a submission");
  }

  bool capture_graph(const std::vector<RoundPlan>& plans, int chunks) {
    Device& first = devices.front();
    DeviceGuard guard(first.info.index);
    if (cudaStreamBeginCapture(first.control, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    bool enqueued = true;
    try {
      enqueue_many(plans, chunks);
    } catch (const CudaError&) {
      enqueued = false;
    }
    cudaGraph_t captured = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(first.control, &captured);
    if (!enqueued || ended != cudaSuccess || !captured) {
      if (captured) cudaGraphDestroy(captured);
      cudaGetLastError();
      // Ending the origin's capture releases every stream that joined it; if one were still
      // capturing, plain submission on it would be captured into nothing.
      for (Rank& r : ranks) {
        cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
        cudaStreamIsCapturing(r.stream, &status);
        if (status != cudaStreamCaptureStatusNone)
          throw CudaError("CUDA: a failed graph capture left a stream capturing; set "
                          "RINGVIZ_CUDA_GRAPHS=0 to submit without graphs");
      }
      cudaGetLastError();
      return false;
    }
    cudaGraphExec_t executable = nullptr;
    if (cudaGraphInstantiate(&executable, captured, 0) != cudaSuccess) {
      cudaGetLastError();
      cudaGraphDestroy(captured);
      return false;
    }
    graph = captured;
    graph_exec = executable;
    return true;
  }

  // Several rounds at once (the benchmark's fast mode): one CUDA graph, replayed while the
  // rounds stay the same; plain stream submission where the driver will not capture them.
  void run_many(const std::vector<Round>& rounds) {
    std::vector<RoundPlan> plans;
    for (const Round& round : rounds) {
      plans.push_back(plan_round(round, shape.ranks));
      if (!plans.back().hazards.empty()) {
        for (const Round& each : rounds) run_single(each);
        timing_pending = false;
        return;
      }
    }
    const int chunks = chunks_for(rounds);
    const std::string description = std::to_string(rounds.size()) + " rounds, " +
                                    std::to_string(chunks) + (chunks == 1 ? " chunk" : " chunks") +
                                    " per slot";
    if (options.use_graphs && !graphs_refused) {
      const bool cached = graph_exec && graph_chunks == chunks && same_rounds(graph_rounds, rounds);
      if (!cached) {
        destroy_graph();
        if (capture_graph(plans, chunks)) {
          graph_rounds = rounds;
          graph_chunks = chunks;
        } else {
          graphs_refused = true;
        }
      }
      if (graph_exec) {
        Device& first = devices.front();
        DeviceGuard guard(first.info.index);
        check_cuda(cudaGraphLaunch(graph_exec, first.control), "launching the collective's graph");
        synchronize_streams();
        last_submission = description + ", one CUDA graph";
        return;
      }
    }
    enqueue_many(plans, chunks);
    synchronize_streams();
    last_submission = description + ", one stream per rank";
  }

  // Submits the queued rounds and waits for them: afterwards every stream is idle.
  void flush() {
    if (pending.empty()) return;
    std::vector<Round> rounds = std::move(pending);
    pending.clear();
    timing_pending = false;
    last_round_us.reset();
    if (rounds.size() == 1)
      run_single(rounds.front());
    else
      run_many(rounds);
  }

  std::optional<double> measure_last_round() {
    if (!timing_pending) return last_round_us;
    timing_pending = false;
    double longest_ms = 0;
    bool any = false;
    for (Rank& r : ranks) {
      if (!r.timed) continue;
      DeviceGuard guard(ordinal(r.device));
      float ms = 0;
      check_cuda(cudaEventElapsedTime(&ms, devices[static_cast<std::size_t>(r.device)].round_start,
                                      r.finished),
                 "reading a round's time");
      longest_ms = std::max(longest_ms, static_cast<double>(ms));
      any = true;
    }
    // A round whose slots are all empty moved nothing and took no device time.
    last_round_us = any ? longest_ms * 1000.0 : 0.0;
    return last_round_us;
  }
};

CudaBackend::CudaBackend(CudaBackendOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->open_devices(options.devices);
}

CudaBackend::~CudaBackend() = default;

void CudaBackend::allocate(const CollectiveShape& shape) { impl_->allocate(shape); }

void CudaBackend::load(const CollectiveShape& shape, const BufferState& state) {
  impl_->allocate(shape);
  impl_->upload(state);
}

void CudaBackend::store(const BufferState& state) {
  impl_->require_allocated("store()");
  // Rounds queued before a restore would be overwritten by it: drop them unsubmitted.
  impl_->pending.clear();
  impl_->timing_pending = false;
  impl_->last_round_us.reset();
  impl_->upload(state);
}

void CudaBackend::execute(const Round& round) {
  impl_->require_allocated("execute()");
  for (const Transfer& transfer : round.transfers)
    if (transfer.src < 0 || transfer.src >= impl_->shape.ranks || transfer.dst < 0 ||
        transfer.dst >= impl_->shape.ranks || transfer.slot < 0 ||
        transfer.slot >= impl_->shape.layout.size())
      throw CudaError("CUDA backend: a transfer names a rank or slot outside the loaded shape");
  impl_->pending.push_back(round);
}

void CudaBackend::fetch(BufferState& state) const {
  impl_->require_allocated("fetch()");
  impl_->flush();
  impl_->download(state);
}

std::optional<double> CudaBackend::last_round_microseconds() const {
  if (!impl_->allocated) return std::nullopt;
  impl_->flush();
  return impl_->measure_last_round();
}

void CudaBackend::synchronize() {
  if (!impl_->allocated) return;
  impl_->flush();
  impl_->synchronize_streams();
}

const std::vector<DeviceInfo>& CudaBackend::devices() const { return impl_->device_infos; }

int CudaBackend::device_of_rank(int rank) const {
  const int k = static_cast<int>(impl_->devices.size());
  return impl_->devices[static_cast<std::size_t>(rank % k)].info.index;
}

LinkKind CudaBackend::link(int src_rank, int dst_rank) const {
  const int k = static_cast<int>(impl_->devices.size());
  const int reader = dst_rank % k;
  const int owner = src_rank % k;
  if (reader == owner) return LinkKind::same_device;
  return impl_->peer_enabled[static_cast<std::size_t>(reader)][static_cast<std::size_t>(owner)]
             ? LinkKind::peer_to_peer
             : LinkKind::staged_through_host;
}

std::uint64_t CudaBackend::allocated_bytes(int device) const {
  std::uint64_t total = 0;
  for (const auto& r : impl_->ranks)
    if (impl_->ordinal(r.device) == device) total += r.buffer_bytes + r.scratch_bytes;
  return total;
}

std::string CudaBackend::last_submission() const { return impl_->last_submission; }

const void* CudaBackend::device_buffer(int rank) {
  impl_->require_allocated("device_buffer()");
  if (rank < 0 || rank >= impl_->shape.ranks)
    throw CudaError("CUDA backend: rank " + std::to_string(rank) + " is not in the loaded shape");
  impl_->flush();
  return impl_->rank(rank).buffer;
}

std::unique_ptr<CudaBackend> make_cuda_backend(CudaBackendOptions options) {
  return std::make_unique<CudaBackend>(std::move(options));
}

}  // namespace ringviz::gpu
