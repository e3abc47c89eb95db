#include "app/gui/share/copy_command.h"

#include <algorithm>
#include <vector>

#include <imgui.h>

#include "app/gui/runtime/gui_app.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

ViewState CopyCommand::state_of(GuiApp& app) const {
  ViewState state;
  state.config = app.model().config();
  if (app.replay().active()) state.open = app.replay().path();
  state.view = app.views().current();
  state.round = app.playback().position();
  state.language = app.language();
  state.present = app.presentation();
  state.predict = classroom_ != nullptr && classroom_->predicting();
  return state;
}

void CopyCommand::copy(GuiApp& app) {
  // Taken once, when asked: the window keeps showing that moment while playback goes on.
  command_ = view_command(state_of(app));
  ImGui::SetClipboardText(command_.c_str());
  open_ = true;
}

void CopyCommand::setup_panel_end(GuiApp& app) {
  const UiStrings& t = app.text();
  ImGui::Spacing();
  if (ImGui::Button(t.copy_command)) copy(app);
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(t.copy_command_tooltip);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void CopyCommand::after_panels(GuiApp& app, const PanelLayout&) {
  if (open_pending_) {
    open_pending_ = false;
    copy(app);
  }
  if (!open_) return;
  const UiStrings& t = app.text();
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float width = std::min(display.x * 0.9f, ImGui::GetFontSize() * 44.0f);
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Appearing);
  if (ImGui::Begin(t.copy_command_title, &open_,
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_AlwaysAutoResize)) {
    // The whole line, wrapped, to read; below it the same line in a read-only field to select
    // and copy by hand (Ctrl+A, Ctrl+C) where the clipboard does not reach.
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - ImGui::GetStyle().WindowPadding.x * 2);
    ImGui::TextUnformatted(command_.c_str());
    std::vector<char> buffer(command_.begin(), command_.end());
    buffer.push_back('\0');
    ImGui::SetNextItemWidth(width - ImGui::GetStyle().WindowPadding.x * 2);
    ImGui::InputText("##command", buffer.data(), buffer.size(), ImGuiInputTextFlags_ReadOnly);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextUnformatted(t.copy_command_copied);
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    if (ImGui::Button(t.copy_command_close)) open_ = false;
  }
  ImGui::End();
}

}  // namespace ringviz::gui
