#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/engine/backend.h"
#include "core/model/config.h"
#include "core/model/layout.h"
#include "core/engine/provenance.h"
#include "core/schedule/pipeline.h"
#include "core/algorithms/registry.h"
#include "core/engine/traffic.h"

namespace ringviz {

struct SessionOptions {
  // Snapshots of the rank buffers kept for stepping back, beyond the initial state. Small
  // collectives keep one per round; large ones keep every k-th and replay from there.
  std::uint64_t snapshot_budget_bytes = std::uint64_t{128} << 20;
};

// A collective's config, checked once, and its schedule, built once: what a Session steps
// through. A front end plans before it opens a window (so bad input exits 2 there) and hands the
// plan down, so that a large pipelined schedule is not built a second time by the Session.
class CollectivePlan {
 public:
  // Validates the config (throws InputError on bad input) and builds its schedule.
  explicit CollectivePlan(Config config);

  const Config& config() const { return config_; }
  const Schedule& schedule() const { return schedule_; }

 private:
  friend class Session;  // takes the schedule over instead of copying it
  Config config_;
  Schedule schedule_;
};

// One collective, executed round by round on a backend, that can be stepped in both
// directions. Any sequence of moves leaves the buffers bit-identical to a plain replay from
// the start, because every state is either a snapshot taken on the way forward or rebuilt by
// re-executing the same rounds from one. A pipelined collective (channels or slices above 1)
// steps wave by wave: the backend holds one slot per piece and executes the execution
// schedule (docs/architecture.md, "Pipelined schedules"), while schedule() and layout() stay
// in the source article's slots so that every view names slots as it does in lock-step.
class Session {
 public:
  // Validates the config and builds the inputs (throws InputError on bad input).
  Session(Config config, std::unique_ptr<Backend> backend, SessionOptions options = {});
  // Builds the inputs of a collective planned already (throws InputError on a bad init file).
  Session(CollectivePlan plan, std::unique_ptr<Backend> backend, SessionOptions options = {});

  const Config& config() const { return config_; }
  // The N slots of the source article, whatever the pipeline.
  const SlotLayout& layout() const { return layout_; }
  // Lock-step rounds, or the pipeline's waves: a transfer's slot is the source article's slot and its
  // step says which piece of it moves (transfer_span() gives the elements).
  const Schedule& schedule() const { return schedule_; }
  PipelineShape pipeline_shape() const { return pipeline_shape_of(schedule_); }
  // --slices or --channels make waves; an algorithm's own lanes alone still run in rounds.
  bool pipelined() const { return pipeline_shape().pipelined(); }
  // What the backend holds and executes: one slot per piece (equal to layout() and
  // schedule() when lock-step).
  const SlotLayout& piece_layout() const { return piece_layout_; }
  const Schedule& execution_schedule() const { return execution_; }
  const Traffic& traffic() const { return traffic_; }
  Backend& backend() { return *backend_; }
  const Backend& backend() const { return *backend_; }

  // Rounds (waves when pipelined) executed so far: 0 (inputs) ... round_count() (done).
  int round() const { return round_; }
  int round_count() const { return schedule_.round_count(); }
  bool at_end() const { return round_ == round_count(); }

  void step_forward();
  void step_back();
  void seek(int round);  // clamped to [0, round_count()]
  void reset() { seek(0); }

  // Every rank's buffer after round(), fetched from the backend when it changed.
  const BufferState& buffers() const;
  const Provenance& provenance() const { return provenance_; }
  // The operation's result for every rank as the collective semantics define it (meaningful at the
  // end): AllReduce the whole buffer, ReduceScatter the owned slot, AllGather all N blocks.
  std::vector<ByteBuffer> outputs() const;
  // Device time of each round as last executed (empty where the backend does not measure).
  std::optional<double> round_microseconds(int round_index) const;
  // Host steady-clock time of each round as last executed (the CPU backend), never in traces.
  std::optional<double> round_host_microseconds(int round_index) const;
  std::size_t snapshot_count() const { return snapshots_.size(); }
  int snapshot_interval() const { return snapshot_interval_; }

 private:
  void execute_next_round();
  void restore(int round);

  Config config_;
  SlotLayout layout_;
  Schedule schedule_;
  SlotLayout piece_layout_;
  Schedule execution_;
  Traffic traffic_;
  std::unique_ptr<Backend> backend_;
  int round_ = 0;
  int snapshot_interval_ = 1;
  std::map<int, BufferState> snapshots_;  // round -> buffers after it; round 0 always kept
  Provenance provenance_;
  std::vector<std::optional<double>> round_times_;
  std::vector<std::optional<double>> round_host_times_;
  mutable BufferState fetched_;
  mutable bool fetched_valid_ = false;
};

// Each rank's result cut out of its working buffer after the last round (docs/architecture.md,
// "Collective semantics"): the whole buffer, or for ReduceScatter the slot it owns. Shared by
// the Session and `ringviz capture`, whose buffers come from other processes.
std::vector<ByteBuffer> collective_outputs(const Config& config, const SlotLayout& layout, const Schedule& schedule,
                                           const BufferState& final_state);

}  // namespace ringviz
