#pragma once
// The CUDA backend: every rank's working buffer lives in device memory, ranks are spread
// round-robin over the GPUs (N ranks on k devices; with one GPU all ranks share it), each rank
// has its own stream, and events order the rounds between streams. A receiver pulls: it
// copies the sender's slot (cudaMemcpyAsync / cudaMemcpyPeerAsync) or runs a reduce kernel
// that reads the sender's slot straight from the sender's memory.
//
// Rounds given to execute() are queued and submitted when the host next looks (synchronize,
// fetch, store, the round time). One queued round runs as is and is timed with CUDA events;
// several (the benchmark's fast mode) are submitted together as one CUDA graph, each round cut
// into chunks so that a chunk travels on to the next round while the rest of the round is
// still in flight, as NCCL pipelines its ring. Either way every element goes through exactly
// the same transfers in the same order, so the buffers stay bit-identical to the CPU backend.
//
// Every round is planned by core/schedule/round_plan.h, as for the CPU backend. Inside gpu/:
// rank_resources (devices, rank buffers, streams, events), stream_ordering (which stream waits
// for which), round_submitter (a planned round onto the streams), timed_round (one round,
// timed) and collective_graph (many rounds as one CUDA graph); cuda_owners holds the RAII
// owners of the CUDA objects.
//
// No CUDA header here: app/ and the tests include this from plain C++.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/backend.h"
#include "gpu/device/cuda_devices.h"
#include "gpu/device/cuda_error.h"

namespace ringviz::gpu {

// Slot bytes per chunk when several rounds are submitted together: small enough that what one
// round writes is still in L2 when the next round reads it, large enough that launch gaps stay
// small next to each chunk's transfer time. RINGVIZ_CUDA_CHUNK_BYTES overrides it (0: whole
// rounds, no pipelining).
inline constexpr std::uint64_t kDefaultPipelineChunkBytes = std::uint64_t{4} << 20;

struct CudaBackendOptions {
  // CUDA device ordinals to spread the ranks over; empty: every visible device.
  std::vector<int> devices;
  std::uint64_t pipeline_chunk_bytes = kDefaultPipelineChunkBytes;
  // Submit several queued rounds as one CUDA graph (falls back to plain stream submission if
  // the driver refuses to capture them).
  bool use_graphs = true;
  // Reads RINGVIZ_CUDA_CHUNK_BYTES and RINGVIZ_CUDA_GRAPHS=0 from the environment.
  static CudaBackendOptions from_environment();
};

class CudaBackend final : public Backend {
 public:
  // Throws CudaError when no usable device exists (the message says why).
  explicit CudaBackend(CudaBackendOptions options = CudaBackendOptions::from_environment());
  ~CudaBackend() override;
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  std::string name() const override { return "cuda"; }
  void load(const CollectiveShape& shape, const BufferState& state) override;
  void store(const BufferState& state) override;
  void execute(const Round& round) override;
  void fetch(BufferState& state) const override;
  std::optional<double> last_round_microseconds() const override;
  void synchronize() override;
  // Every device in use with cudaMemGetInfo's figures and this backend's allocations; the
  // ranks of the loaded shape (none before load()).
  PlacementReport placement() const override;
  // link() in core's terms.
  TransferRoute route(int src_rank, int dst_rank) const override;

  // Allocates device memory for `shape` without filling it (load() calls this). Throws a
  // CudaError naming the GPU, the bytes needed and the bytes free when it does not fit; the
  // backend stays usable with a smaller shape afterwards.
  void allocate(const CollectiveShape& shape);

  // The devices ranks are spread over, in mapping order: rank r lives on devices()[r % k].
  const std::vector<DeviceInfo>& devices() const;
  int device_of_rank(int rank) const;  // the CUDA ordinal
  // How a transfer from `src_rank` to `dst_rank` travels.
  LinkKind link(int src_rank, int dst_rank) const;
  // Device memory this backend holds on CUDA device `device` (rank buffers and scratch).
  std::uint64_t allocated_bytes(int device) const;
  // How the last submission ran, for the benchmark's header: e.g. "1 round, streams" or
  // "14 rounds, CUDA graph, 8 chunks per slot".
  std::string last_submission() const;

  // Rank `rank`'s working buffer on device_of_rank(rank), for the GL interop kernel. Submits
  // queued rounds and waits for them first. Valid until the next load() or allocate().
  const void* device_buffer(int rank);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

std::unique_ptr<CudaBackend> make_cuda_backend(
    CudaBackendOptions options = CudaBackendOptions::from_environment());

}  // namespace ringviz::gpu
