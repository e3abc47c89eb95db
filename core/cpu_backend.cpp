// The reference backend: rank buffers in host memory, rounds executed by a thread pool.
#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "core/backend.h"
#include "core/slot_kernels.h"
#include "core/thread_pool.h"

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
    destination_count_ = 0;  // planned against the old shape
    destination_of_.clear();
    shape_ = shape;
    state_ = state;
  }

  void store(const BufferState& state) override { state_ = state; }

  void fetch(BufferState& state) const override { state = state_; }

  void execute(const Round& round) override {
    plan_round(round);
    // Waking the workers costs more than a round this small takes on the calling thread.
    if (planned_elements_ <= kElementsPerTask) {
      for (const Task& task : tasks_) run_task(task);
      return;
    }
    // Workers start with the first round big enough to share: stepping through a small
    // collective (the visualiser, the test sweeps) never pays for threads it does not use.
    if (!pool_) pool_ = std::make_unique<ThreadPool>(threads_);
    pool_->parallel_for(tasks_.size(), [&](std::size_t index) { run_task(tasks_[index]); });
  }

 private:
  // All transfers that land in one (rank, slot), in schedule order: folding them in that
  // order on every element keeps the result deterministic when several arrive in one round.
  struct Destination {
    int rank = 0;
    int slot = 0;
    std::vector<const Transfer*> transfers;
    bool completes = false;
  };
  struct Task {
    const Destination* destination;
    std::int64_t begin;  // element range inside the slot
    std::int64_t end;
  };

  const std::byte* source_of(const Transfer& transfer) const {
    const auto staged = staged_.find({transfer.src, transfer.slot});
    const std::size_t element = dtype_size(shape_.dtype);
    if (staged != staged_.end()) return staged->second.data();
    return state_.ranks[static_cast<std::size_t>(transfer.src)].data() +
           shape_.layout[transfer.slot].offset * element;
  }

  // Destination of (rank, slot) this round, or -1: a flat table rather than a map because a
  // round is planned at every step, and reset entry by entry after use.
  int& destination_index(int rank, int slot) {
    const auto ranks = static_cast<std::size_t>(shape_.ranks);
    if (destination_of_.size() != ranks * ranks) destination_of_.assign(ranks * ranks, -1);
    return destination_of_[static_cast<std::size_t>(rank) * ranks + static_cast<std::size_t>(slot)];
  }

  void plan_round(const Round& round) {
    for (std::size_t i = 0; i < destination_count_; ++i)
      destination_index(destinations_[i].rank, destinations_[i].slot) = -1;
    // Destinations are reused from round to round, keeping their transfer lists' storage:
    // planning a round then allocates nothing.
    destination_count_ = 0;
    tasks_.clear();
    staged_.clear();
    planned_elements_ = 0;
    for (const Transfer& transfer : round.transfers) {
      int& index = destination_index(transfer.dst, transfer.slot);
      if (index < 0) {
        index = static_cast<int>(destination_count_++);
        if (destinations_.size() < destination_count_) destinations_.emplace_back();
        Destination& fresh = destinations_[static_cast<std::size_t>(index)];
        fresh.rank = transfer.dst;
        fresh.slot = transfer.slot;
        fresh.transfers.clear();
        fresh.completes = false;
      }
      Destination& destination = destinations_[static_cast<std::size_t>(index)];
      destination.transfers.push_back(&transfer);
      destination.completes = destination.completes || transfer.completes_slot;
    }
    // A slot that is both read and written this round is read from a copy taken before the
    // round, so every receiver sees the value as it was. The ring never needs this.
    const std::size_t element = dtype_size(shape_.dtype);
    for (const Transfer& transfer : round.transfers) {
      if (destination_index(transfer.src, transfer.slot) < 0 || staged_.count({transfer.src, transfer.slot}))
        continue;
      const Slot& slot = shape_.layout[transfer.slot];
      const std::byte* begin =
          state_.ranks[static_cast<std::size_t>(transfer.src)].data() + slot.offset * element;
      staged_[{transfer.src, transfer.slot}] =
          ByteBuffer(begin, begin + slot.count * static_cast<std::int64_t>(element));
    }
    for (std::size_t i = 0; i < destination_count_; ++i) {
      const Destination& destination = destinations_[i];
      const std::int64_t size = shape_.layout[destination.slot].count;
      planned_elements_ += size * static_cast<std::int64_t>(destination.transfers.size());
      for (std::int64_t begin = 0; begin < size; begin += kElementsPerTask)
        tasks_.push_back({&destination, begin, std::min(size, begin + kElementsPerTask)});
    }
  }

  void run_task(const Task& task) {
    const Destination& destination = *task.destination;
    const std::size_t element = dtype_size(shape_.dtype);
    const std::int64_t byte_offset =
        (shape_.layout[destination.slot].offset + task.begin) * static_cast<std::int64_t>(element);
    std::byte* local = state_.ranks[static_cast<std::size_t>(destination.rank)].data() + byte_offset;
    const std::int64_t count = task.end - task.begin;
    for (const Transfer* transfer : destination.transfers) {
      const std::byte* incoming = source_of(*transfer) + task.begin * static_cast<std::int64_t>(element);
      if (transfer->kind == TransferKind::copy)
        copy_elements(shape_.dtype, incoming, local, count);
      else
        reduce_elements(shape_.dtype, shape_.reduce, incoming, local, count);
    }
    if (destination.completes && shape_.reduce == ReduceOp::avg)
      divide_elements(shape_.dtype, local, count, shape_.ranks);
  }

  unsigned threads_;
  std::unique_ptr<ThreadPool> pool_;
  CollectiveShape shape_;
  BufferState state_;
  std::vector<Destination> destinations_;  // the first destination_count_ are this round's
  std::size_t destination_count_ = 0;
  std::vector<Task> tasks_;
  std::int64_t planned_elements_ = 0;  // elements read from senders this round
  std::vector<int> destination_of_;
  std::map<std::pair<int, int>, ByteBuffer> staged_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(unsigned threads) {
  return std::make_unique<CpuBackend>(threads);
}

}  // namespace ringviz
