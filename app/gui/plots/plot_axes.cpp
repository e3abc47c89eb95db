#include "app/gui/plots/plot_axes.h"

#include <algorithm>
#include <cmath>

#include "app/gui/plots/centre_view_draw.h"

namespace ringviz::gui {

int label_stride(float spacing, float needed) {
  if (!(spacing > 0)) return 1 << 20;
  return std::max(1, static_cast<int>(std::ceil(needed / spacing - 1e-4f)));
}

LinearAxis linear_axis(double max, float length, float needed, int most) {
  const int target = std::clamp(static_cast<int>(std::floor(length / std::max(1.0f, needed))), 1, std::max(1, most));
  LinearAxis axis;
  axis.top = max > 0 ? nice_ceiling(max, target) : 1.0;
  axis.step = nice_step(axis.top, target);
  return axis;
}

float widest_label(const std::vector<AxisLabel>& labels) {
  float widest = 0;
  for (const AxisLabel& label : labels) widest = std::max(widest, ImGui::CalcTextSize(label.text.c_str()).x);
  return widest;
}

void draw_y_labels(ImDrawList* dl, TextBoard& board, const Rect& plot, float gap, const std::vector<AxisLabel>& labels,
                   ImU32 colour) {
  for (const AxisLabel& label : labels) {
    const InkExtent ink = ink_extent(label.text);
    const float width = ImGui::CalcTextSize(label.text.c_str()).x;
    // The ink's middle on the tick: the end labels reach half a line past the plot's top and
    // bottom, into the gap above it and the gutter's corner below it, where no x label goes.
    const float top = label.at - (ink.top + ink.bottom) * 0.5f;
    board.place(dl, ImVec2(std::round(plot.x - gap - width), std::round(top)), colour, label.text);
  }
}

void draw_x_labels(ImDrawList* dl, TextBoard& board, const Rect& plot, float y, const std::vector<AxisLabel>& labels,
                   ImU32 colour) {
  for (const AxisLabel& label : labels) {
    const float width = ImGui::CalcTextSize(label.text.c_str()).x;
    const float left = std::clamp(label.at - width * 0.5f, plot.x, std::max(plot.x, plot.right() - width));
    board.place(dl, ImVec2(std::round(left), std::round(y)), colour, label.text);
  }
}

}  // namespace ringviz::gui
