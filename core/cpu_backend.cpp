// The reference backend: rank buffers in host memory, rounds executed by a thread pool.
#include <algorithm>
#include <map>
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
      : pool_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

  std::string name() const override { return "cpu"; }

  void load(const CollectiveShape& shape, const BufferState& state) override {
    shape_ = shape;
    state_ = state;
  }

  void store(const BufferState& state) override { state_ = state; }

  void fetch(BufferState& state) const override { state = state_; }

  void execute(const Round& round) override {
    plan_round(round);
    pool_.parallel_for(tasks_.size(), [&](std::size_t index) { run_task(tasks_[index]); });
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

  void plan_round(const Round& round) {
    destinations_.clear();
    tasks_.clear();
    staged_.clear();
    std::map<std::pair<int, int>, std::size_t> index_of;
    for (const Transfer& transfer : round.transfers) {
      auto [it, added] = index_of.emplace(std::pair{transfer.dst, transfer.slot}, destinations_.size());
      if (added) destinations_.push_back({transfer.dst, transfer.slot, {}, false});
      Destination& destination = destinations_[it->second];
      destination.transfers.push_back(&transfer);
      destination.completes = destination.completes || transfer.completes_slot;
    }
    // A slot that is both read and written this round is read from a copy taken before the
    // round, so every receiver sees the value as it was. The ring never needs this.
    const std::size_t element = dtype_size(shape_.dtype);
    for (const Transfer& transfer : round.transfers) {
      if (!index_of.count({transfer.src, transfer.slot}) || staged_.count({transfer.src, transfer.slot}))
        continue;
      const Slot& slot = shape_.layout[transfer.slot];
      const std::byte* begin =
          state_.ranks[static_cast<std::size_t>(transfer.src)].data() + slot.offset * element;
      staged_[{transfer.src, transfer.slot}] =
          ByteBuffer(begin, begin + slot.count * static_cast<std::int64_t>(element));
    }
    for (const Destination& destination : destinations_) {
      const std::int64_t size = shape_.layout[destination.slot].count;
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

  ThreadPool pool_;
  CollectiveShape shape_;
  BufferState state_;
  std::vector<Destination> destinations_;
  std::vector<Task> tasks_;
  std::map<std::pair<int, int>, ByteBuffer> staged_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(unsigned threads) {
  return std::make_unique<CpuBackend>(threads);
}

}  // namespace ringviz
