#pragma once
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model/config.h"
#include "core/model/text.h"
#include "core/engine/contributor_label.h"
#include "core/input/integer_overflow.h"
#include "core/engine/session.h"
#include "core/teaching/visual_cells.h"
#include "core/trace/trace_read.h"

namespace ringviz::gui {

// Everything the views draw for one rest state (the buffers after `round` rounds).
struct ShownState {
  int round = -1;
  VisualCells cells;
  Provenance provenance;
  // Per cell (rank * N + slot), only for rings small enough to print text in the cells:
  std::vector<LabelForms> labels;   // "a2+c2+d2" / "c2..a2", "A"; empty when nothing arrived yet
  std::vector<std::string> values;  // "3 7", only when the slot has few elements
};

// Owns the Session the GUI steps through and what is derived from it. A rebuild that fails
// (bad input, not enough memory) keeps the previous session and reports why.
class SessionModel {
 public:
  static constexpr int kMaxTextRanks = 16;
  static constexpr std::int64_t kMaxValuesPerCell = 6;

  // false with `error` set when the config is rejected; the old session stays.
  bool rebuild(const Config& config, BackendChoice backend, std::string& error);
  // The same for a collective planned already (its config checked and schedule built once).
  bool rebuild(CollectivePlan plan, BackendChoice backend, std::string& error);

  bool ready() const { return session_ != nullptr; }
  Session& session() { return *session_; }
  const Session& session() const { return *session_; }
  const Config& config() const { return session_->config(); }
  BackendChoice backend_choice() const { return backend_choice_; }
  const std::string& backend_name() const { return backend_name_; }
  // Why the CPU backend runs although CUDA was allowed, in `language`; empty otherwise.
  std::string backend_notice(Language language) const;
  // The same, as the backend selection said it (English): what --verbose prints on stderr.
  const std::string& backend_selection_notice() const { return backend_notice_; }
  // This ringviz has no CUDA backend at all (no device was looked for).
  bool built_without_cuda() const { return built_without_cuda_; }
  const ValueRange& range() const { return range_; }
  // Bumped on every successful rebuild, so views can tell that the shape changed.
  int generation() const { return generation_; }

  // The state after `round` rounds (clamped), cached for the few rounds on screen.
  const ShownState& state_at(int round);

  // A recorded run of this config whose buffers are shown where it has them (a replay); the
  // session's own elsewhere. Cleared by rebuild().
  void show_recording(std::shared_ptr<const RecordedRun> run);
  // True while the ring view's cells are written on the device (CUDA-OpenGL interop): states
  // then carry the cell records but no bins, and buffers are fetched to the host only for
  // the values printed in small cells.
  void set_cell_data_on_device(bool on_device);
  bool cell_data_on_device() const { return cell_data_on_device_; }

  // The inputs of every rank, exact (for the editable value table).
  std::vector<std::vector<ElementValue>> input_values() const;
  // The first element whose integer reduction wraps around in the collective built last.
  const std::optional<IntegerOverflow>& integer_overflow() const { return integer_overflow_; }

 private:
  std::unique_ptr<Session> session_;
  BackendChoice backend_choice_ = BackendChoice::automatic;
  std::string backend_name_;
  std::optional<IntegerOverflow> integer_overflow_;
  std::string backend_notice_;  // the English sentence, should the parts below be missing
  std::string backend_fallback_reason_;
  bool built_without_cuda_ = false;
  ValueRange range_;
  int generation_ = 0;
  bool cell_data_on_device_ = false;
  std::list<ShownState> cache_;  // most recently used first
  std::shared_ptr<const RecordedRun> recording_;

  const BufferState& buffers_at(int round) const;
};

// A value as the cells and the table print it: integers exactly, floats with up to four
// significant digits.
std::string format_value(const ElementValue& value);

}  // namespace ringviz::gui
