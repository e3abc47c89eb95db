#pragma once
#include <memory>
#include <optional>
#include <string>

#include "core/model/buffers.h"
#include "core/engine/collective_shape.h"
#include "core/schedule/schedule.h"

namespace ringviz {

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
  // Blocks until all submitted work has finished (a no-op on the CPU).
  virtual void synchronize() {}
};

// threads = 0: one worker per hardware thread.
std::unique_ptr<Backend> make_cpu_backend(unsigned threads = 0);

}  // namespace ringviz
