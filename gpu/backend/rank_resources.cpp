#include "gpu/backend/rank_resources.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include <cuda_runtime.h>

#include "gpu/device/cuda_check.h"
#include "gpu/device/cuda_error.h"

namespace ringviz::gpu {

namespace {

std::string gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GB", bytes / 1e9);
  return text;
}

}  // namespace

RankResources::RankResources(const std::vector<int>& ordinals) { open_devices(ordinals); }

RankResources::~RankResources() { wait_quietly(); }

void RankResources::wait_quietly() noexcept {
  for (CudaRank& rank : ranks_)
    if (rank.stream && cudaStreamSynchronize(rank.stream.get()) != cudaSuccess) cudaGetLastError();
}

void RankResources::open_devices(const std::vector<int>& wanted) {
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
    CudaDevice& added = devices_.emplace_back();
    added.info = probe.devices[static_cast<std::size_t>(ordinal)];
    DeviceGuard guard(ordinal);
    added.control = CudaStream::create_non_blocking(
        ordinal, [&] { return "creating a stream on GPU " + std::to_string(ordinal); });
    added.round_start = CudaEvent::create(
        ordinal, EventTiming::timed, [&] { return "creating an event on GPU " + std::to_string(ordinal); });
    device_infos_.push_back(added.info);
  }
  open_peer_links(probe);
  const int first = devices_.front().info.index;
  DeviceGuard guard(first);
  fork_ = CudaEvent::create(first, EventTiming::untimed, "creating an event");
}

void RankResources::open_peer_links(const CudaProbe& probe) {
  const std::size_t k = devices_.size();
  peer_enabled_.assign(k, std::vector<bool>(k, false));
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t b = 0; b < k; ++b) {
      const int reader = devices_[a].info.index;
      const int owner = devices_[b].info.index;
      if (a == b || !probe.can_access_peer[static_cast<std::size_t>(reader)][static_cast<std::size_t>(owner)])
        continue;
      peer_enabled_[a][b] = enable_peer_access(reader, owner);
    }
}

bool RankResources::peer_enabled(int reader_device, int owner_device) const {
  return peer_enabled_[static_cast<std::size_t>(reader_device)][static_cast<std::size_t>(owner_device)];
}

bool RankResources::reads_directly(int reader, int owner) const {
  const int a = ranks_[static_cast<std::size_t>(reader)].device;
  const int b = ranks_[static_cast<std::size_t>(owner)].device;
  return a == b || peer_enabled(a, b);
}

LinkKind RankResources::link(int src_rank, int dst_rank) const {
  const int reader = device_index_of_rank(dst_rank);
  const int owner = device_index_of_rank(src_rank);
  if (reader == owner) return LinkKind::same_device;
  return peer_enabled(reader, owner) ? LinkKind::peer_to_peer : LinkKind::staged_through_host;
}

std::uint64_t RankResources::allocated_bytes(int ordinal) const {
  std::uint64_t total = 0;
  for (const CudaRank& rank : ranks_)
    if (ordinal_of(rank) == ordinal) total += rank.buffer.size() + rank.scratch.size();
  return total;
}

void RankResources::create_ranks(int count) {
  ranks_.clear();
  allocated_ = false;
  // Built aside and kept only when every rank is set up: a failure leaves no rank without
  // its stream.
  std::vector<CudaRank> created(static_cast<std::size_t>(count));
  for (int r = 0; r < count; ++r) {
    CudaRank& rank = created[static_cast<std::size_t>(r)];
    rank.device = device_index_of_rank(r);
    const int ordinal = devices_[static_cast<std::size_t>(rank.device)].info.index;
    DeviceGuard guard(ordinal);
    const auto where = [&] {
      return "setting up rank " + std::to_string(r) + " on GPU " + std::to_string(ordinal);
    };
    rank.stream = CudaStream::create_non_blocking(ordinal, where);
    rank.done = CudaEvent::create(ordinal, EventTiming::untimed, where);
    rank.finished = CudaEvent::create(ordinal, EventTiming::timed, where);
  }
  ranks_ = std::move(created);
}

void RankResources::free_buffers() {
  for (CudaRank& rank : ranks_) {
    rank.buffer.reset();
    rank.scratch.reset();
  }
  allocated_ = false;
}

void RankResources::throw_out_of_memory(int device_index, std::uint64_t needed, int ranks_there) {
  const DeviceInfo& info = devices_[static_cast<std::size_t>(device_index)].info;
  std::size_t free_bytes = 0, total_bytes = 0;
  {
    DeviceGuard guard(info.index);
    cudaMemGetInfo(&free_bytes, &total_bytes);
    cudaGetLastError();
  }
  const std::string who = "the " + std::to_string(ranks_there) +
                          (ranks_there == 1 ? " rank placed there needs" : " ranks placed there need");
  throw CudaError("CUDA: out of memory on GPU " + std::to_string(info.index) + " (" + info.name +
                  "): " + who + " " + gigabytes(static_cast<double>(needed)) + " but " +
                  gigabytes(static_cast<double>(free_bytes)) + " of " +
                  gigabytes(static_cast<double>(total_bytes)) +
                  " is free; choose a smaller --count or fewer --gpus");
}

void RankResources::allocate(const CollectiveShape& wanted) {
  if (static_cast<int>(ranks_.size()) != wanted.ranks) create_ranks(wanted.ranks);
  else free_buffers();
  shape_ = wanted;

  const std::uint64_t element = dtype_size(shape_.dtype);
  const std::uint64_t buffer_bytes = static_cast<std::uint64_t>(shape_.layout.elements_per_rank) * element;
  std::int64_t largest_slot = 0;
  for (const Slot& slot : shape_.layout.slots) largest_slot = std::max(largest_slot, slot.count);
  const std::uint64_t scratch_bytes = static_cast<std::uint64_t>(largest_slot) * element + 16;

  // Where a rank's GPU cannot read some other rank's GPU, slots from there land in scratch.
  std::vector<bool> needs_scratch(ranks_.size(), false);
  for (int reader = 0; reader < shape_.ranks; ++reader)
    for (int owner = 0; owner < shape_.ranks; ++owner)
      if (!reads_directly(reader, owner)) needs_scratch[static_cast<std::size_t>(reader)] = true;

  // Refuse before allocating anything when a GPU clearly lacks the room.
  std::vector<std::uint64_t> needed(devices_.size(), 0);
  std::vector<int> ranks_on(devices_.size(), 0);
  for (int r = 0; r < shape_.ranks; ++r) {
    const auto d = static_cast<std::size_t>(rank(r).device);
    needed[d] += buffer_bytes + (needs_scratch[static_cast<std::size_t>(r)] ? scratch_bytes : 0);
    ++ranks_on[d];
  }
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    if (needed[d] == 0) continue;
    const int ordinal = devices_[d].info.index;
    DeviceGuard guard(ordinal);
    std::size_t free_bytes = 0, total_bytes = 0;
    check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes),
               [&] { return "reading free memory on GPU " + std::to_string(ordinal); });
    if (needed[d] > free_bytes) throw_out_of_memory(static_cast<int>(d), needed[d], ranks_on[d]);
  }
  for (int r = 0; r < shape_.ranks; ++r) {
    CudaRank& placed = rank(r);
    const auto d = static_cast<std::size_t>(placed.device);
    DeviceGuard guard(ordinal_of(placed));
    const bool fits =
        placed.buffer.allocate(ordinal_of(placed), buffer_bytes) == cudaSuccess &&
        (!needs_scratch[static_cast<std::size_t>(r)] ||
         placed.scratch.allocate(ordinal_of(placed), scratch_bytes) == cudaSuccess);
    if (!fits) {
      cudaGetLastError();  // out of memory is not sticky: clear it and give back what we took
      free_buffers();
      throw_out_of_memory(placed.device, needed[d], ranks_on[d]);
    }
  }
  allocated_ = true;
}

void RankResources::synchronize() {
  for (std::size_t r = 0; r < ranks_.size(); ++r) {
    const int ordinal = ordinal_of(ranks_[r]);
    DeviceGuard guard(ordinal);
    check_cuda(cudaStreamSynchronize(ranks_[r].stream.get()), [&] {
      return "waiting for rank " + std::to_string(r) + " on GPU " + std::to_string(ordinal);
    });
  }
  for (CudaDevice& device : devices_) {
    DeviceGuard guard(device.info.index);
    check_cuda(cudaStreamSynchronize(device.control.get()),
               [&] { return "waiting for GPU " + std::to_string(device.info.index); });
  }
}

void RankResources::upload(const BufferState& state) {
  if (state.dtype != shape_.dtype || state.elements_per_rank != shape_.layout.elements_per_rank ||
      static_cast<int>(state.ranks.size()) != shape_.ranks)
    throw CudaError("CUDA backend: store() got buffers of another shape than load()");
  const std::size_t bytes = state.bytes_per_rank();
  for (int r = 0; r < shape_.ranks; ++r) {
    if (bytes == 0) continue;
    CudaRank& target = rank(r);
    DeviceGuard guard(ordinal_of(target));
    // On the rank's own stream: a pageable upload may return before its DMA ends, and only
    // the stream knows when it has.
    check_cuda(cudaMemcpyAsync(target.buffer.data(), state.ranks[static_cast<std::size_t>(r)].data(), bytes,
                               cudaMemcpyHostToDevice, target.stream.get()),
               [&] { return "uploading rank " + std::to_string(r) + "'s buffer"; });
  }
  synchronize();
}

void RankResources::download(BufferState& state) {
  state.dtype = shape_.dtype;
  state.elements_per_rank = shape_.layout.elements_per_rank;
  state.ranks.resize(static_cast<std::size_t>(shape_.ranks));
  const std::size_t bytes = state.bytes_per_rank();
  for (int r = 0; r < shape_.ranks; ++r) {
    ByteBuffer& host = state.ranks[static_cast<std::size_t>(r)];
    host.resize(bytes);
    if (bytes == 0) continue;
    CudaRank& source = rank(r);
    DeviceGuard guard(ordinal_of(source));
    check_cuda(cudaMemcpyAsync(host.data(), source.buffer.data(), bytes, cudaMemcpyDeviceToHost,
                               source.stream.get()),
               [&] { return "downloading rank " + std::to_string(r) + "'s buffer"; });
  }
  synchronize();
}

}  // namespace ringviz::gpu
