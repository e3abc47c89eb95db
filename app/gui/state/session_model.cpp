#include "app/gui/state/session_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "app/backend/backend_select.h"
#include "app/gui/text/op_label.h"
#include "core/algorithms/registry.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "core/input/initial_values.h"

namespace ringviz::gui {

std::string format_value(const ElementValue& value) {
  char text[32];
  if (value.is_integer) {
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(value.integer));
  } else if (std::isnan(value.real)) {
    return "nan";
  } else if (std::isinf(value.real)) {
    return value.real > 0 ? "inf" : "-inf";
  } else {
    std::snprintf(text, sizeof text, "%.4g", value.real);
  }
  return text;
}

std::string SessionModel::backend_notice(Language language) const {
  if (backend_notice_.empty()) return {};
  const UiStrings& t = ui_strings_for(language);
  if (built_without_cuda_) return t.backend_no_cuda_build;
  if (!backend_fallback_reason_.empty()) return format(t.backend_cpu_fallback_reason, backend_fallback_reason_.c_str());
  return backend_notice_;
}

bool SessionModel::rebuild(const Config& config, BackendChoice backend, std::string& error) {
  std::optional<CollectivePlan> plan;
  try {
    plan.emplace(config);
  } catch (const std::exception& problem) {
    error = problem.what();
    return false;
  }
  return rebuild(std::move(*plan), backend, error);
}

bool SessionModel::rebuild(CollectivePlan plan, BackendChoice backend, std::string& error) {
  try {
    check_fits_in_memory(plan.config());
    BackendSelection selection = select_backend(backend);
    std::string name = selection.backend->name();
    auto session = std::make_unique<Session>(std::move(plan), std::move(selection.backend));
    // Map heat colours to the span of the inputs and the results together, so that a cell's
    // colour only changes when its value does.
    ValueRange range = value_range(session->buffers(), session->provenance(), session->layout());
    std::optional<IntegerOverflow> overflow =
        first_integer_overflow(session->config(), session->buffers());  // the inputs
    session->seek(session->round_count());
    range.include(value_range(session->buffers(), session->provenance(), session->layout()));
    session->seek(0);
    session_ = std::move(session);
    backend_choice_ = backend;
    backend_name_ = std::move(name);
    backend_notice_ = std::move(selection.notice);
    backend_fallback_reason_ = std::move(selection.fallback_reason);
    built_without_cuda_ = selection.built_without_cuda;
    range_ = range;
    integer_overflow_ = std::move(overflow);
    cache_.clear();
    recording_.reset();
    ++generation_;
    // Fill the whole cache once now, so that its storage (megabytes with 256 GPUs) is paged
    // in while the user waits for a rebuild anyway, not mid-animation at the first rounds.
    for (int round = std::min(2, session_->round_count()); round >= 0; --round) state_at(round);
    return true;
  } catch (const std::exception& problem) {
    error = problem.what();
    return false;
  }
}

const ShownState& SessionModel::state_at(int round) {
  round = std::clamp(round, 0, session_->round_count());
  for (auto it = cache_.begin(); it != cache_.end(); ++it) {
    if (it->round != round) continue;
    cache_.splice(cache_.begin(), cache_, it);
    return cache_.front();
  }
  // Two states are on screen at most (before and after a transfer); keep one spare. The
  // least recent entry is reused rather than freed: its megabytes of storage (256 GPUs) are
  // already paged in, and touching fresh pages costs more than filling them.
  if (cache_.size() >= 3) cache_.splice(cache_.begin(), cache_, std::prev(cache_.end()));
  else cache_.emplace_front();
  ShownState& state = cache_.front();
  state.round = round;
  session_->seek(round);
  const Config& config = session_->config();
  const int n = config.ranks;
  state.provenance = session_->provenance();
  // A replay's recorded buffers are on the host: its cells are built there.
  if (cell_data_on_device_ && !recording_) {
    // The records depend on provenance only; the bins are the device's to write.
    state.cells.ranks = n;
    state.cells.slots = session_->layout().size();
    state.cells.bins_per_slot = bins_per_slot_for(session_->layout(), n);
    state.cells.bins.clear();
    fill_cell_records(config, session_->layout(), session_->schedule(), round, state.provenance,
                      state.cells.cells);
  } else {
    fill_visual_cells(config, session_->layout(), session_->schedule(), round, buffers_at(round),
                      state.provenance, range_, state.cells);
  }
  if (n <= kMaxTextRanks) {
    const int slots = session_->layout().size();
    const std::size_t cells = static_cast<std::size_t>(n) * static_cast<std::size_t>(slots);
    state.labels.assign(cells, {});
    state.values.assign(cells, {});
    for (int rank = 0; rank < n; ++rank) {
      for (int slot = 0; slot < slots; ++slot) {
        const std::size_t index = static_cast<std::size_t>(rank) * static_cast<std::size_t>(slots) +
                                  static_cast<std::size_t>(slot);
        const RankSet set = state.provenance.at(rank, slot);
        // Lane by lane where the slot's lanes (the bidirectional ring's halves) differ.
        state.labels[index] = lane_label_forms(config, state.provenance.lanes_at(rank, slot), slot, rank);
        const Slot& span = session_->layout()[slot];
        if (set.none() || span.count == 0 || span.count > kMaxValuesPerCell) continue;
        const BufferState& buffers = buffers_at(round);  // fetched once, only when text needs it
        std::string text;
        for (std::int64_t i = 0; i < span.count; ++i)
          text += (i ? " " : "") + format_value(read_element(buffers, rank, span.offset + i));
        state.values[index] = std::move(text);
      }
    }
  } else {
    state.labels.clear();
    state.values.clear();
  }
  return state;
}

void SessionModel::show_recording(std::shared_ptr<const RecordedRun> run) {
  recording_ = std::move(run);
  cache_.clear();
}

// The recorded buffers after `round` rounds where the replay has them (docs/architecture.md,
// "Replaying a recorded run"); the session, already at `round`, otherwise.
const BufferState& SessionModel::buffers_at(int round) const {
  if (recording_) {
    const std::optional<BufferState>& recorded =
        round == 0 ? recording_->initial : recording_->rounds[static_cast<std::size_t>(round - 1)].buffers;
    if (recorded) return *recorded;
  }
  return session_->buffers();
}

void SessionModel::set_cell_data_on_device(bool on_device) {
  if (on_device == cell_data_on_device_) return;
  cell_data_on_device_ = on_device;
  cache_.clear();  // cached states were built for the other path
}

std::vector<std::vector<ElementValue>> SessionModel::input_values() const {
  const Config& config = session_->config();
  const BufferState initial = make_initial_state(config);
  const SlotLayout& layout = session_->layout();
  std::vector<std::vector<ElementValue>> rows(static_cast<std::size_t>(config.ranks));
  for (int rank = 0; rank < config.ranks; ++rank) {
    const std::int64_t offset = input_offset(config, layout, rank);
    // AllToAll's left-over elements never reach the buffer: zero stands in for them, unread.
    for (std::int64_t i = 0; i < config.count; ++i)
      rows[static_cast<std::size_t>(rank)].push_back(i < input_elements_taken(config, rank)
                                                         ? read_element(initial, rank, offset + i)
                                                         : ElementValue{!is_floating(config.dtype), 0, 0});
  }
  return rows;
}

}  // namespace ringviz::gui
