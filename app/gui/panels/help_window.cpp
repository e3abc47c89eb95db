#include "app/gui/panels/help_window.h"

#include <algorithm>
#include <cstring>
#include <string>

#include <imgui.h>

#include "app/gui/text/op_label.h"
#include "core/algorithms/registry.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

namespace {

// "Key\tmeaning" -> a two-column table row.
void key_row(const char* entry) {
  const char* tab = std::strchr(entry, '\t');
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextUnformatted(entry, tab ? tab : entry + std::strlen(entry));
  ImGui::TableSetColumnIndex(1);
  ImGui::TextUnformatted(tab ? tab + 1 : "");
}

}  // namespace

void HelpWindow::draw(float width, float height, float ui_scale, Language language, const Config& config,
                      const std::string& backend_notice, bool& open) {
  const UiStrings& t = ui_strings_for(language);
  const ReduceOp reduce = config.reduce;
  const float s = ui_scale;
  const ImVec2 size(std::min(width * 0.9f, 620.0f * s), std::min(height * 0.85f, 560.0f * s));
  ImGui::SetNextWindowPos(ImVec2((width - size.x) * 0.5f, (height - size.y) * 0.5f), ImGuiCond_Appearing);
  ImGui::SetNextWindowSize(size, ImGuiCond_Appearing);
  if (ImGui::Begin(t.help_title, &open, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
    ImGui::TextUnformatted(t.help_keys_heading);
    if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
      for (const char* entry : {t.key_space, t.key_arrows, t.key_home_end, t.key_speed, t.key_fullscreen,
                                t.key_quit, t.key_help, t.key_ops, t.key_mouse, t.key_present, t.key_present_size,
                                t.key_predict, t.key_language, t.key_pipeline})
        key_row(entry);
      ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::TextUnformatted(t.help_guide_heading);
    // The ring's guide speaks of its arrows; another algorithm's rounds each have their own senders.
    if (config.algorithm == Algorithm::ring) ImGui::TextWrapped("%s", t.guide_text);
    else ImGui::TextWrapped("%s", format(t.guide_text_other, std::string(algorithm_name(config.algorithm)).c_str()).c_str());
    ImGui::Separator();
    ImGui::TextUnformatted(t.help_legend_heading);
    const std::string stripes = format(t.legend_stripes, partial_result(language, reduce));
    const std::string dim = format(t.legend_dim, partial_result(language, reduce));
    for (const char* entry : {t.legend_colour, stripes.c_str(), t.legend_hatch, dim.c_str(), t.legend_outline,
                              t.legend_heat})
    {
      ImGui::Bullet();
      ImGui::TextWrapped("%s", entry);  // BulletText does not wrap
    }
    if (!backend_notice.empty()) {
      ImGui::Separator();
      ImGui::TextUnformatted(t.backend_heading);
      ImGui::TextWrapped("%s", backend_notice.c_str());
    }
  }
  ImGui::End();
}

}  // namespace ringviz::gui
