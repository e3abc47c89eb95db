#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/schedule/rounds.h"
#include "core/model/buffers.h"
#include "core/schedule/collective_shape.h"

namespace ringviz {

// One device a backend keeps rank buffers on, as the GUI's device panel shows it.
struct DeviceDescription {
  int index = 0;  // the device's ordinal (CUDA)
  std::string name;
  std::uint64_t bytes_total = 0;
  std::uint64_t bytes_used_all = 0;         // by every process, when the report was made
  std::uint64_t bytes_used_by_ringviz = 0;  // rank buffers and scratch this backend allocated
};

// Where every rank lives. Empty (no devices, no ranks listed): every rank is a buffer in host
// memory.
struct PlacementReport {
  std::vector<DeviceDescription> devices;
  std::vector<int> device_of_rank;  // the device's index per rank
};

// How a transfer between two ranks travels.
enum class TransferRoute {
  host_memory,   // both buffers are in host memory (the CPU backend)
  same_device,   // both ranks live on one GPU
  peer_to_peer,  // the receiver's GPU reads the sender's memory directly
  through_host,  // no peer access: the bytes are staged through host memory
};

// Where the rank buffers live and how a round is executed on them. The CPU backend (in core)
// is the reference; every other backend must produce bit-identical buffers after every round.
// Backends do not plan rounds themselves: they carry out what core/schedule/round_plan.h decides
// (docs/architecture.md, "Backends and the round planner").
class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;
  // Allocates every rank's working buffer for `shape` and fills it from `state`.
  virtual void load(const CollectiveShape& shape, const BufferState& state) = 0;
  // Overwrites every rank's buffer (same shape as load): used to restore a snapshot.
  virtual void store(const BufferState& state) = 0;
  // Executes all transfers of `round` at once: every receiver sees the sender's slot as it
  // was before the round.
  virtual void execute(const Round& round) = 0;
  // Copies every rank's buffer to the host.
  virtual void fetch(BufferState& state) const = 0;
  // The device time of the last execute(), where the backend measures it (CUDA events).
  virtual std::optional<double> last_round_microseconds() const { return std::nullopt; }
  // The host's steady clock around the last execute(), where the round runs on the calling
  // thread (the CPU backend). Kept apart from the device time: traces record only that, so
  // that they do not change from run to run.
  virtual std::optional<double> last_round_host_microseconds() const { return std::nullopt; }
  // Which device holds which rank, and how much memory each has and ringviz uses there.
  virtual PlacementReport placement() const { return {}; }
  // How a transfer from `src_rank` to `dst_rank` travels.
  virtual TransferRoute route(int src_rank, int dst_rank) const {
    (void)src_rank;
    (void)dst_rank;
    return TransferRoute::host_memory;
  }
  // Blocks until all submitted work has finished (a no-op on the CPU).
  virtual void synchronize() {}
};

// threads = 0: one worker per hardware thread.
std::unique_ptr<Backend> make_cpu_backend(unsigned threads = 0);

}  // namespace ringviz
