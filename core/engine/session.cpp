#include "core/engine/session.h"

#include <algorithm>

#include "core/algorithms/registry.h"
#include "core/input/initial_values.h"

namespace ringviz {

CollectivePlan::CollectivePlan(Config config) : config_(std::move(config)) {
  validate_or_throw(config_);
  schedule_ = make_schedule(config_);
}

Session::Session(Config config, std::unique_ptr<Backend> backend, SessionOptions options)
    : Session(CollectivePlan(std::move(config)), std::move(backend), options) {}

Session::Session(CollectivePlan plan, std::unique_ptr<Backend> backend, SessionOptions options)
    : config_(std::move(plan.config_)), schedule_(std::move(plan.schedule_)), backend_(std::move(backend)) {
  layout_ = make_layout(config_);
  piece_layout_ = ringviz::piece_layout(layout_, pipeline_shape());
  execution_ = ringviz::execution_schedule(schedule_);
  traffic_ = compute_traffic(schedule_, layout_, config_.dtype, config_.ranks);
  round_times_.assign(static_cast<std::size_t>(round_count()), std::nullopt);
  round_host_times_.assign(static_cast<std::size_t>(round_count()), std::nullopt);

  BufferState initial = make_initial_state(config_);
  const std::uint64_t state_bytes = initial.bytes_per_rank() * initial.ranks.size();
  const std::uint64_t all_rounds = state_bytes * static_cast<std::uint64_t>(round_count());
  if (state_bytes > 0 && all_rounds > options.snapshot_budget_bytes)
    snapshot_interval_ = static_cast<int>(
        std::min<std::uint64_t>((all_rounds + options.snapshot_budget_bytes - 1) /
                                    std::max<std::uint64_t>(options.snapshot_budget_bytes, 1),
                                static_cast<std::uint64_t>(round_count()) + 1));
  backend_->load({config_.dtype, config_.reduce, config_.ranks, piece_layout_}, initial);
  snapshots_.emplace(0, std::move(initial));
  provenance_ = Provenance::initial(config_);
}

void Session::execute_next_round() {
  backend_->execute(execution_.rounds[static_cast<std::size_t>(round_)]);
  round_times_[static_cast<std::size_t>(round_)] = backend_->last_round_microseconds();
  round_host_times_[static_cast<std::size_t>(round_)] = backend_->last_round_host_microseconds();
  provenance_.apply(schedule_.rounds[static_cast<std::size_t>(round_)]);
  ++round_;
  fetched_valid_ = false;
  if (round_ % snapshot_interval_ == 0 && !snapshots_.count(round_)) {
    BufferState snapshot;
    backend_->fetch(snapshot);
    snapshots_.emplace(round_, std::move(snapshot));
  }
}

void Session::restore(int round) {
  const auto snapshot = std::prev(snapshots_.upper_bound(round));
  backend_->store(snapshot->second);
  round_ = snapshot->first;
  fetched_valid_ = false;
  // Provenance depends on the schedule only: replaying it is a few set unions per round.
  provenance_ = Provenance::initial(config_);
  for (int i = 0; i < round_; ++i) provenance_.apply(schedule_.rounds[static_cast<std::size_t>(i)]);
}

void Session::step_forward() {
  if (!at_end()) execute_next_round();
}

void Session::step_back() {
  if (round_ > 0) seek(round_ - 1);
}

void Session::seek(int round) {
  round = std::clamp(round, 0, round_count());
  if (round == round_) return;
  // Going forward from here is never more work than restoring, unless a snapshot lies
  // between here and the target.
  const int nearest_snapshot = std::prev(snapshots_.upper_bound(round))->first;
  if (round < round_ || nearest_snapshot > round_) restore(round);
  while (round_ < round) execute_next_round();
}

const BufferState& Session::buffers() const {
  if (!fetched_valid_) {
    const auto snapshot = snapshots_.find(round_);
    if (snapshot != snapshots_.end())
      fetched_ = snapshot->second;
    else
      backend_->fetch(fetched_);
    fetched_valid_ = true;
  }
  return fetched_;
}

std::vector<ByteBuffer> Session::outputs() const {
  return collective_outputs(config_, layout_, schedule_, buffers());
}

std::vector<ByteBuffer> collective_outputs(const Config& config, const SlotLayout& layout, const Schedule& schedule,
                                           const BufferState& final_state) {
  const std::size_t element = dtype_size(config.dtype);
  if (uneven_all_to_all(config)) {
    // all_to_all_single's output: the rank's column, the block from GPU 0 first.
    std::vector<ByteBuffer> result(static_cast<std::size_t>(config.ranks));
    for (int rank = 0; rank < config.ranks; ++rank)
      for (int sender = 0; sender < config.ranks; ++sender) {
        const Slot& slot = layout[pair_slot(config.ranks, sender, rank)];
        const std::byte* begin = final_state.ranks[static_cast<std::size_t>(rank)].data() + slot.offset * element;
        ByteBuffer& out = result[static_cast<std::size_t>(rank)];
        out.insert(out.end(), begin, begin + slot.count * static_cast<std::int64_t>(element));
      }
    return result;
  }
  if (config.op != Op::reducescatter) return final_state.ranks;
  std::vector<ByteBuffer> result;
  for (int rank = 0; rank < config.ranks; ++rank) {
    const Slot& slot = layout[schedule.owned_slot[static_cast<std::size_t>(rank)]];
    const std::byte* begin = final_state.ranks[static_cast<std::size_t>(rank)].data() + slot.offset * element;
    result.emplace_back(begin, begin + slot.count * static_cast<std::int64_t>(element));
  }
  return result;
}

std::optional<double> Session::round_microseconds(int round_index) const {
  if (round_index < 0 || round_index >= round_count()) return std::nullopt;
  return round_times_[static_cast<std::size_t>(round_index)];
}

std::optional<double> Session::round_host_microseconds(int round_index) const {
  if (round_index < 0 || round_index >= round_count()) return std::nullopt;
  return round_host_times_[static_cast<std::size_t>(round_index)];
}

}  // namespace ringviz
