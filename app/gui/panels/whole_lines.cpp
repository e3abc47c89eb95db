#include "app/gui/panels/whole_lines.h"

#include <algorithm>

#include <imgui.h>

namespace ringviz::gui {

float whole_lines_bottom(const std::vector<float>& boundaries, float spacing, float scroll, float visible_bottom) {
  constexpr float kTolerance = 0.5f;  // pixels: boundaries sit on whole pixels
  float bottom = -1;
  bool below = false;
  for (float boundary : boundaries) {
    const float next_top = boundary - scroll;
    // The line ends `spacing` above the next one's top; it fits when that end is visible.
    if (next_top - spacing <= visible_bottom + kTolerance) bottom = std::max(bottom, std::min(next_top, visible_bottom));
    else below = true;
  }
  return below && bottom >= 0 ? bottom : visible_bottom;
}

void WholeLines::begin() {
  marking_.clear();
  const ImVec2 clip_min = ImGui::GetWindowDrawList()->GetClipRectMin();
  const ImVec2 clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
  // Boundaries are content coordinates: screen y with the scroll added back.
  const float bottom =
      whole_lines_bottom(boundaries_, ImGui::GetStyle().ItemSpacing.y, ImGui::GetScrollY(), clip_max.y);
  clipped_ = bottom < clip_max.y;
  if (clipped_) ImGui::PushClipRect(clip_min, ImVec2(clip_max.x, std::max(clip_min.y, bottom)), true);
}

void WholeLines::mark() { marking_.push_back(ImGui::GetCursorScreenPos().y + ImGui::GetScrollY()); }

void WholeLines::end() {
  if (clipped_) ImGui::PopClipRect();
  clipped_ = false;
  boundaries_.swap(marking_);
}

}  // namespace ringviz::gui
