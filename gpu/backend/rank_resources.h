#pragma once
// Internal to gpu/: where the CUDA backend's ranks live. The GPUs in use (each with a control
// stream and a timing event), the ranks spread round-robin over them (each with its buffer,
// its stream and its events), which GPU may read which directly, and the host copies in and
// out. Nothing here submits rounds: round_submitter.h and collective_graph.h do.
#include <cstdint>
#include <vector>

#include "core/model/buffers.h"
#include "core/schedule/collective_shape.h"
#include "gpu/device/cuda_devices.h"
#include "gpu/backend/cuda_owners.h"

namespace ringviz::gpu {

struct CudaDevice {
  DeviceInfo info;
  CudaStream control;     // where a round's timing starts and graphs launch
  CudaEvent round_start;  // timing: recorded when a timed round is submitted
};

struct CudaRank {
  int device = 0;  // index into RankResources::devices()
  DeviceMemory buffer;
  // Landing area for a slot from a GPU this rank's GPU cannot read directly.
  DeviceMemory scratch;
  CudaStream stream;
  CudaEvent done;      // orders this rank's work before other ranks' next work
  CudaEvent finished;  // timing: the end of this rank's part of a timed round
  bool timed = false;  // `finished` belongs to the last timed round
};

class RankResources {
 public:
  // Opens the CUDA devices with these ordinals (empty: every visible one) and enables peer
  // access between them where the hardware allows. Throws CudaError naming what is missing.
  explicit RankResources(const std::vector<int>& ordinals);
  // Waits for every rank's stream before the owners release their objects.
  ~RankResources();
  RankResources(const RankResources&) = delete;
  RankResources& operator=(const RankResources&) = delete;

  // Places shape.ranks ranks round-robin and allocates their buffers (and scratch where a
  // GPU cannot read another directly). Throws a CudaError naming the GPU, the bytes needed
  // and the bytes free when it does not fit; nothing stays allocated then.
  void allocate(const CollectiveShape& shape);
  // Frees the rank buffers (streams and events stay).
  void free_buffers();
  bool allocated() const { return allocated_; }
  const CollectiveShape& shape() const { return shape_; }

  // Copies every rank's buffer in or out on the ranks' streams and waits for them.
  void upload(const BufferState& state);
  void download(BufferState& state);
  // Waits for every rank stream and every control stream.
  void synchronize();
  // Waits for every rank stream, ignoring errors (for teardown).
  void wait_quietly() noexcept;

  std::vector<CudaDevice>& devices() { return devices_; }
  const std::vector<DeviceInfo>& device_infos() const { return device_infos_; }
  CudaDevice& first_device() { return devices_.front(); }
  CudaDevice& device_of(const CudaRank& rank) { return devices_[static_cast<std::size_t>(rank.device)]; }
  int ordinal_of(const CudaRank& rank) const {
    return devices_[static_cast<std::size_t>(rank.device)].info.index;
  }

  std::vector<CudaRank>& ranks() { return ranks_; }
  CudaRank& rank(int r) { return ranks_[static_cast<std::size_t>(r)]; }
  // On devices_[0]: where a multi-round submission forks into the rank streams.
  cudaEvent_t fork() const { return fork_.get(); }

  // Whether rank `reader`'s GPU reads rank `owner`'s memory without a staging copy.
  bool reads_directly(int reader, int owner) const;
  // By the round-robin placement alone (no allocation needed).
  int device_index_of_rank(int rank) const { return rank % static_cast<int>(devices_.size()); }
  LinkKind link(int src_rank, int dst_rank) const;
  std::uint64_t allocated_bytes(int ordinal) const;

 private:
  void open_devices(const std::vector<int>& ordinals);
  void open_peer_links(const CudaProbe& probe);
  void create_ranks(int count);
  bool peer_enabled(int reader_device, int owner_device) const;
  [[noreturn]] void throw_out_of_memory(int device_index, std::uint64_t needed, int ranks_there);

  std::vector<CudaDevice> devices_;
  std::vector<DeviceInfo> device_infos_;
  std::vector<std::vector<bool>> peer_enabled_;  // [reader][owner], indices into devices_
  CudaEvent fork_;
  CollectiveShape shape_;
  bool allocated_ = false;
  std::vector<CudaRank> ranks_;
};

}  // namespace ringviz::gpu
