#include "app/web/copy_link.h"

#include <filesystem>

#include <emscripten.h>
#include <imgui.h>

#include "app/gui/runtime/gui_app.h"
#include "app/gui/text/strings.h"
#include "app/web/view_link.h"

namespace ringviz::web {

namespace {

// The page's address with `fragment`, as a new history entry or in place of the current one
// (web/shell.html: ringvizPage).
void show_in_address(const std::string& fragment, bool replace) {
  EM_ASM({ ringvizPage.showFragment(UTF8ToString($0), $1); }, fragment.c_str(), replace ? 1 : 0);
}

}  // namespace

std::string CopyLink::fragment(gui::GuiApp& app) const {
  LinkLesson lesson;
  if (lessons_->active()) {
    lesson.name = std::filesystem::path(lessons_->lesson().source).stem().string();
    lesson.scene = std::to_string(lessons_->frame().scene_index + 1);
  }
  return view_link_fragment(command_->state_of(app), lesson);
}

void CopyLink::setup_panel_end(gui::GuiApp& app) {
  const gui::UiStrings& t = app.text();
  ImGui::SameLine();
  if (ImGui::Button(t.copy_link)) {
    const std::string link = fragment(app);
    EM_ASM({ ringvizPage.copyLink(UTF8ToString($0)); }, link.c_str());
  }
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(t.copy_link_tooltip);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", t.web_desktop_only);
  ImGui::PopTextWrapPos();
}

void CopyLink::after_panels(gui::GuiApp& app, const gui::PanelLayout&) {
  // Only a view that stands still is an entry: playing would push one every frame.
  if (app.animating()) return;
  const std::string now = fragment(app);
  if (now == shown_) return;
  shown_ = now;
  show_in_address(now, replace_next_);
  replace_next_ = false;
}

}  // namespace ringviz::web
