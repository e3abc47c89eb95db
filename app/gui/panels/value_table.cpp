#include "app/gui/panels/value_table.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/table_fit.h"
#include "app/gui/text/strings.h"
#include "core/model/checked_value.h"

namespace ringviz::gui {

namespace {

ValueTable::CellText cell_text(const ElementValue& value) {
  ValueTable::CellText text{};
  const std::string written = written_text(value);
  written.copy(text.data(), text.size() - 1);
  return text;
}

}  // namespace

std::optional<std::vector<std::vector<ElementValue>>> ValueTable::draw(const UiStrings& t, const SessionModel& model,
                                                                     PaletteKind palette) {
  const Config& config = model.config();
  if (static_cast<std::int64_t>(config.ranks) * config.count > kMaxTableValues || config.count == 0) {
    hint_text(t.value_table_too_big);
    return std::nullopt;
  }
  // Refill the edit buffer from the session unless the user is typing in it.
  if (generation_ != model.generation() && !ImGui::IsAnyItemActive()) {
    values_ = model.input_values();
    texts_.assign(values_.size(), {});
    for (std::size_t r = 0; r < values_.size(); ++r)
      for (const ElementValue& value : values_[r]) texts_[r].push_back(cell_text(value));
    generation_ = model.generation();
  }
  if (values_.size() != static_cast<std::size_t>(config.ranks)) return std::nullopt;
  ImGui::TextUnformatted(t.value_table);
  hint_text(t.value_table_hint);
  const int columns = static_cast<int>(config.count) + 1;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchSame |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY;
  // Whole rows and whole columns only: the table is sized to a whole number of each, and
  // scrolls by them (a value cut at the table's edge is cut-off text).
  const ImGuiStyle& style = ImGui::GetStyle();
  const float row_height = ImGui::GetFrameHeight() + 2 * style.CellPadding.y;
  const float header_height = ImGui::GetFontSize() + 2 * style.CellPadding.y;
  const float gpu_width = ImGui::CalcTextSize("GPU 00").x;
  const float value_width = ImGui::CalcTextSize("-0000.0").x;
  // A column's pitch: its width, its cell padding both sides, the inner border.
  const float pitch = value_width + 2 * style.CellPadding.x + 1.0f;
  const float all_rows = header_height + row_height * static_cast<float>(config.ranks);
  const float available = ImGui::GetContentRegionAvail().x;
  const float frozen = gpu_width + 2 * style.CellPadding.x + 1.0f;
  const float outer_borders = 2.0f;
  // Scrollbars take room from the cells only when they are there: across when the columns
  // do not all fit beside a possible vertical bar, down when the rows do not.
  const bool scroll_x = frozen + pitch * static_cast<float>(columns - 1) + outer_borders > available;
  const float bar_x = scroll_x ? style.ScrollbarSize : 0.0f;
  const float rows_height = whole_rows_height(ImGui::GetContentRegionAvail().y * 0.5f - bar_x, header_height, row_height);
  const bool scroll_y = all_rows > rows_height;
  const float bar_y = scroll_y ? style.ScrollbarSize : 0.0f;
  const float shown_columns = std::clamp(std::floor((available - outer_borders - bar_y - frozen) / pitch), 1.0f,
                                         static_cast<float>(columns - 1));
  const float width = scroll_x ? frozen + shown_columns * pitch + bar_y + outer_borders : 0.0f;
  const float height = std::min(all_rows, rows_height) + bar_x + outer_borders;
  if (!ImGui::BeginTable("##values", columns, flags, ImVec2(width, height))) return std::nullopt;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("GPU", ImGuiTableColumnFlags_WidthFixed, gpu_width);
  for (int i = 1; i < columns; ++i) {
    const std::string name = "[" + std::to_string(i - 1) + "]";
    ImGui::TableSetupColumn(name.c_str(), ImGuiTableColumnFlags_WidthFixed, value_width);
  }
  ImGui::TableHeadersRow();
  bool edited = false;
  for (int r = 0; r < config.ranks; ++r) {
    ImGui::TableNextRow(0, row_height);
    ImGui::TableSetColumnIndex(0);
    ImGui::TextColored(to_imvec4(rank_colour(r, palette)), "GPU %d", r);
    for (int i = 0; i + 1 < columns; ++i) {
      ImGui::TableSetColumnIndex(i + 1);
      ImGui::PushID(r * columns + i);
      ImGui::SetNextItemWidth(-FLT_MIN);
      CellText& text = texts_[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)];
      ElementValue& value = values_[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)];
      ImGui::InputText("##v", text.data(), text.size(), ImGuiInputTextFlags_CharsNoBlank);
      if (ImGui::IsItemDeactivatedAfterEdit()) {
        const WrittenNumber read = read_written_number(text.data());
        if (read.reading == NumberReading::number) {
          value = read.value;
          edited = true;
        } else {
          text = cell_text(value);
        }
      }
      ImGui::PopID();
    }
  }
  snap_scroll_to_rows(row_height);
  snap_scroll_x_to_columns(pitch);
  ImGui::EndTable();
  if (!edited) return std::nullopt;
  return values_;
}

}  // namespace ringviz::gui
