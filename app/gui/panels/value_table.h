#pragma once
// The setup panel's table of input values, one row per GPU: shown and editable while the
// collective is small enough to read that way.
#include <cstdint>
#include <optional>
#include <vector>

#include "app/gui/render/theme.h"
#include "app/gui/state/session_model.h"

namespace ringviz::gui {

inline constexpr int kMaxTableValues = 64;  // GPUs x count up to which inputs are editable

class ValueTable {
 public:
  // Draws the table of `model`'s inputs. Returns the edited rows once the user leaves a field
  // after changing it (the caller applies them as custom inputs); nothing otherwise.
  std::optional<std::vector<std::vector<double>>> draw(const SessionModel& model, PaletteKind palette);
  // Reloads the rows from the session at the next frame (after the edit was applied).
  void reload() { generation_ = -1; }

 private:
  // The edit buffer: ImGui edits it live, so it lags the session until a field is left.
  std::vector<std::vector<double>> values_;
  int generation_ = -1;
};

}  // namespace ringviz::gui
