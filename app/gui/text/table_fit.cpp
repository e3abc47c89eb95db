#include "app/gui/text/table_fit.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

namespace ringviz::gui {

std::vector<bool> columns_that_fit(const std::vector<ColumnNeed>& columns, float per_column, float available) {
  std::vector<bool> kept(columns.size(), true);
  auto total = [&] {
    float sum = 0;
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (kept[i]) sum += columns[i].width + per_column;
    return sum;
  };
  int highest = 0;
  for (const ColumnNeed& column : columns) highest = std::max(highest, column.drop_rank);
  // A whole rank leaves at once: columns that say the same thing in two ways go together.
  for (int rank = highest; rank > 0 && total() > available; --rank)
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (columns[i].drop_rank == rank) kept[i] = false;
  return kept;
}

float whole_rows_height(float available, float header, float row) {
  if (row <= 0) return std::max(available, header);
  const float rows = std::max(1.0f, std::floor((available - header) / row));
  return header + rows * row;
}

void snap_scroll_to_rows(float row) {
  if (row <= 0) return;
  const float scroll = ImGui::GetScrollY();
  const float snapped = std::min(std::round(scroll / row) * row, std::round(ImGui::GetScrollMaxY() / row) * row);
  if (std::abs(snapped - scroll) > 0.25f) ImGui::SetScrollY(snapped);
}

void snap_scroll_x_to_columns(float pitch) {
  if (pitch <= 0) return;
  const float scroll = ImGui::GetScrollX();
  const float snapped = std::min(std::round(scroll / pitch) * pitch, std::round(ImGui::GetScrollMaxX() / pitch) * pitch);
  if (std::abs(snapped - scroll) > 0.25f) ImGui::SetScrollX(snapped);
}

}  // namespace ringviz::gui
