// The reference backend: rank buffers in host memory, rounds executed by a thread pool.
#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "core/engine/backend.h"
#include "core/schedule/round_plan.h"
#include "core/engine/slot_kernels.h"
#include "core/engine/thread_pool.h"

namespace ringviz {

namespace {

// Elements handed to one worker at a time: large enough to amortise the dispatch, small
// enough that 2 threads stay busy on slots of a few hundred KiB.
constexpr std::int64_t kElementsPerTask = 1 << 15;

class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(unsigned threads)
      : threads_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

  std::string name() const override { return "cpu"; }

  void load(const CollectiveShape& shape, const BufferState& state) override {
    shape_ = shape;
    state_ = state;
  }

  void store(const BufferState& state) override { state_ = state; }

  void fetch(BufferState& state) const override { state = state_; }

  void execute(const Round& round) override {
    const auto start = std::chrono::steady_clock::now();
    execute_planned(planner_.plan(round, shape_));
    last_round_host_microseconds_ =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  }

  std::optional<double> last_round_host_microseconds() const override { return last_round_host_microseconds_; }

 private:
  void execute_planned(const RoundPlan& plan) {
    stage_reads(plan);
    split_into_tasks(plan);
    // Waking the workers costs more than a round this small takes on the calling thread.
    if (planned_elements_ <= kElementsPerTask) {
      for (const Task& task : tasks_) run_task(plan, task);
      return;
    }
    // Workers start with the first round big enough to share: stepping through a small
    // collective (the visualiser, the test sweeps) never pays for threads it does not use.
    if (!pool_) pool_ = std::make_unique<ThreadPool>(threads_);
    pool_->parallel_for(tasks_.size(), [&](std::size_t index) { run_task(plan, tasks_[index]); });
  }

  struct Task {
    const PlannedDestination* destination;
    std::int64_t begin;  // element range inside the slot
    std::int64_t end;
  };

  std::byte* slot_bytes(int rank, int slot) {
    return state_.ranks[static_cast<std::size_t>(rank)].data() +
           shape_.layout[slot].offset * static_cast<std::int64_t>(dtype_size(shape_.dtype));
  }

  // Copies the slots the plan reads and writes in the same round, so that every receiver
  // reads them as they were before the round. The copies keep their storage between rounds.
  void stage_reads(const RoundPlan& plan) {
    const auto reads = plan.staged_reads();
    if (staged_copies_.size() < reads.size()) staged_copies_.resize(reads.size());
    const std::size_t element = dtype_size(shape_.dtype);
    for (std::size_t i = 0; i < reads.size(); ++i) {
      const std::byte* begin = slot_bytes(reads[i].rank, reads[i].slot);
      const std::int64_t bytes = shape_.layout[reads[i].slot].count * static_cast<std::int64_t>(element);
      staged_copies_[i].assign(begin, begin + bytes);
    }
  }

  void split_into_tasks(const RoundPlan& plan) {
    tasks_.clear();
    planned_elements_ = 0;
    for (const PlannedDestination& destination : plan.destinations()) {
      const std::int64_t size = shape_.layout[destination.slot].count;
      planned_elements_ += size * static_cast<std::int64_t>(destination.transfer_count);
      for (std::int64_t begin = 0; begin < size; begin += kElementsPerTask)
        tasks_.push_back({&destination, begin, std::min(size, begin + kElementsPerTask)});
    }
  }

  void run_task(const RoundPlan& plan, const Task& task) {
    const PlannedDestination& destination = *task.destination;
    const std::int64_t element = static_cast<std::int64_t>(dtype_size(shape_.dtype));
    std::byte* local = slot_bytes(destination.rank, destination.slot) + task.begin * element;
    const std::int64_t count = task.end - task.begin;
    for (const PlannedTransfer& planned : plan.transfers_into(destination)) {
      const Transfer& transfer = planned.transfer;
      const std::byte* sender_slot =
          planned.reads_staged_copy() ? staged_copies_[static_cast<std::size_t>(planned.staged_read)].data()
                                      : slot_bytes(transfer.src, transfer.source_slot());
      const std::byte* incoming = sender_slot + task.begin * element;
      if (transfer.kind == TransferKind::copy)
        copy_elements(shape_.dtype, incoming, local, count);
      else
        reduce_elements(shape_.dtype, shape_.reduce, incoming, local, count);
    }
    if (destination.divides_by_ranks) divide_elements(shape_.dtype, local, count, shape_.ranks);
  }

  unsigned threads_;
  std::unique_ptr<ThreadPool> pool_;
  CollectiveShape shape_;
  BufferState state_;
  RoundPlanner planner_;
  std::vector<ByteBuffer> staged_copies_;  // the first staged_reads().size() are this round's
  std::vector<Task> tasks_;
  std::int64_t planned_elements_ = 0;  // elements read from senders this round
  std::optional<double> last_round_host_microseconds_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(unsigned threads) {
  return std::make_unique<CpuBackend>(threads);
}

}  // namespace ringviz
