// The tab bar above the centre area and the switch between the ring and the other views.
#include "app/gui/views/centre_view.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/gui/views/centre_view_draw.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

namespace {

// The view the GUI opens on (--view); set once before the GuiApp exists.
CentreView g_startup_view = CentreView::ring;

// Each view's name on the command line (--view) and its tab's label.
struct ViewNames {
  CentreView view;
  std::string_view name;
  const char* UiStrings::*label;
};
constexpr ViewNames kViewNames[] = {
    {CentreView::ring, "ring", &UiStrings::view_ring},
    {CentreView::memory, "memory", &UiStrings::view_memory},
    {CentreView::training, "training", &UiStrings::view_training},
    {CentreView::compare, "compare", &UiStrings::view_compare},
};

const ViewNames* names_of(CentreView view) {
  for (const ViewNames& names : kViewNames)
    if (names.view == view) return &names;
  return nullptr;
}

const char* view_label(CentreView view) {
  const ViewNames* names = names_of(view);
  return names ? view_strings().*(names->label) : "?";
}

}  // namespace

std::string_view centre_view_name(CentreView view) {
  const ViewNames* names = names_of(view);
  return names ? names->name : "?";
}

bool parse_centre_view(std::string_view text, CentreView& out) {
  for (const ViewNames& names : kViewNames)
    if (names.name == text) {
      out = names.view;
      return true;
    }
  return false;
}

void set_startup_view(CentreView view) { g_startup_view = view; }
CentreView startup_view() { return g_startup_view; }

void CentreViews::advance(double seconds) {
  memory_.advance(seconds);
  training_.advance(seconds);
}

bool CentreViews::animating() const {
  return memory_.playing() || (current_ == CentreView::training && training_.busy());
}

Rect CentreViews::draw_tab_bar(PanelLayout& panels, float ui_scale) {
  const float strip = std::round(ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y * 1.2f);
  // The tabs sit above the caption; the ring's caption and view move down to make room.
  const Rect centre{panels.caption.x, panels.caption.y, panels.caption.w,
                    panels.view.bottom() - panels.caption.y};
  const Rect tabs{centre.x, centre.y, centre.w, std::min(strip, centre.h)};
  panels.caption.y += tabs.h;
  panels.view.y += tabs.h;
  panels.view.h = std::max(0.0f, panels.view.h - tabs.h);

  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetStyle().WindowPadding.x, 4.0f * ui_scale));
  begin_panel("##view_tabs", tabs, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar |
                                       ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleVar();
  // A view chosen from outside (the lesson player, --view, "open in ring view") is pushed
  // into the tab bar until the tab bar reports it, since ImGui applies a selection a frame late.
  CentreView reported = current_;
  if (ImGui::BeginTabBar("##views")) {
    for (CentreView view : kAllCentreViews) {
      const bool force = view == current_ && view != tab_reported_;
      if (ImGui::BeginTabItem(view_label(view), nullptr, force ? ImGuiTabItemFlags_SetSelected : 0)) {
        reported = view;
        ImGui::EndTabItem();
      }
    }
    ImGui::EndTabBar();
  }
  if (tab_reported_ == current_) current_ = reported;  // a click on a tab
  tab_reported_ = reported;
  ImGui::End();
  return {centre.x, tabs.bottom(), centre.w, std::max(0.0f, centre.bottom() - tabs.bottom())};
}

void CentreViews::draw_current(const Rect& area, const ViewContext& context) {
  switch (current_) {
    case CentreView::memory: memory_.draw(area, context); break;
    case CentreView::training: training_.draw(area, context); break;
    case CentreView::compare: compare_.draw(area, context); break;
    case CentreView::ring: break;
  }
}

}  // namespace ringviz::gui
