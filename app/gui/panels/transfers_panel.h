#pragma once
// The transfers table: every row `ringviz trace` has (round, phase, sender, receiver, slot,
// kind, bytes); the current round's rows are highlighted and kept in view. Rows and columns are
// drawn whole: a panel too narrow for every column leaves out the phase, then the kind, then the
// bytes (the phase stays in the colour of the first column drawn after it).
#include <array>
#include <string>
#include <vector>

#include "app/gui/layout/geometry.h"
#include "app/gui/state/frame_context.h"
#include "app/gui/state/session_model.h"

namespace ringviz::gui {

class TransfersPanel {
 public:
  // A click on a row selects its sending GPU in `selected_gpu`, or clears it when it was.
  void draw(const Rect& area, const SessionModel& model, const FrameContext& frame, int& selected_gpu);
  // Scrolls to the current round's rows at the next frame, as after a new config.
  void follow_current_round() { scrolled_round_ = -1; }

 private:
  enum Column { kRound, kPhase, kSend, kSlot, kKind, kBytes, kColumns };
  // Measures every column in the current font and says which fit the panel.
  std::vector<bool> kept_columns(Language language, const SessionModel& model, bool pipelined, const char* reduce_kind);

  int scrolled_round_ = -1;  // the round whose rows were last scrolled into view
  std::array<float, kColumns> column_widths_{};
  std::string widest_bytes_;          // the byte count of the largest transfer, formatted
  int widest_bytes_generation_ = -1;  // the model generation it was found for
};

}  // namespace ringviz::gui
