#pragma once
// The setup panel's table of input values, one row per GPU: shown and editable while the
// collective is small enough to read that way.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "app/gui/render/theme.h"
#include "app/gui/state/session_model.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

inline constexpr int kMaxTableValues = 64;  // GPUs x count up to which inputs are editable

class ValueTable {
 public:
  using CellText = std::array<char, 32>;  // one cell's text as typed
  // Draws the table of `model`'s inputs. Returns the edited rows once the user leaves a field
  // after changing it (the caller applies them as custom inputs, which checks them against the
  // type as --init values: is checked); nothing otherwise. A cell is read as --init values:
  // reads it (core/model/checked_value.h); one that is not a number returns to its value.
  std::optional<std::vector<std::vector<ElementValue>>> draw(const UiStrings& t, const SessionModel& model,
                                                               PaletteKind palette);
  // Reloads the rows from the session at the next frame (after the edit was applied).
  void reload() { generation_ = -1; }

 private:
  // The edit buffer, each cell's text: ImGui edits it live, so it lags the session until a
  // field is left. Text, not doubles, so that an i64 beyond 2^53 is shown and kept exactly.
  std::vector<std::vector<ElementValue>> values_;
  std::vector<std::vector<CellText>> texts_;
  int generation_ = -1;
};

}  // namespace ringviz::gui
