#include "app/gui/panels/value_table.h"

#include <algorithm>
#include <cfloat>
#include <string>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

std::optional<std::vector<std::vector<double>>> ValueTable::draw(const SessionModel& model, PaletteKind palette) {
  const UiStrings& t = ui_strings();
  const Config& config = model.config();
  if (static_cast<std::int64_t>(config.ranks) * config.count > kMaxTableValues || config.count == 0) {
    hint_text(t.value_table_too_big);
    return std::nullopt;
  }
  // Refill the edit buffer from the session unless the user is typing in it.
  if (generation_ != model.generation() && !ImGui::IsAnyItemActive()) {
    values_ = model.input_values();
    generation_ = model.generation();
  }
  if (values_.size() != static_cast<std::size_t>(config.ranks)) return std::nullopt;
  ImGui::TextUnformatted(t.value_table);
  hint_text(t.value_table_hint);
  const int columns = static_cast<int>(config.count) + 1;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchSame |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY;
  const float row_height = ImGui::GetFrameHeightWithSpacing();
  const float height = std::min(row_height * (config.ranks + 1.5f), ImGui::GetContentRegionAvail().y * 0.5f);
  if (!ImGui::BeginTable("##values", columns, flags, ImVec2(0, height))) return std::nullopt;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("GPU", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("GPU 00").x);
  for (int i = 1; i < columns; ++i) {
    const std::string name = "[" + std::to_string(i - 1) + "]";
    ImGui::TableSetupColumn(name.c_str(), ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("-0000.0").x);
  }
  ImGui::TableHeadersRow();
  bool edited = false;
  for (int r = 0; r < config.ranks; ++r) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextColored(to_imvec4(rank_colour(r, palette)), "GPU %d", r);
    for (int i = 0; i + 1 < columns; ++i) {
      ImGui::TableSetColumnIndex(i + 1);
      ImGui::PushID(r * columns + i);
      ImGui::SetNextItemWidth(-FLT_MIN);
      ImGui::InputDouble("##v", &values_[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)], 0, 0, "%g");
      edited |= ImGui::IsItemDeactivatedAfterEdit();
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
  if (!edited) return std::nullopt;
  return values_;
}

}  // namespace ringviz::gui
