// The tab bar above the centre area and the switch between the ring and the other views.
#include "app/gui/views/centre_view.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/views/devices_view.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "app/gui/inspect/item_marks.h"

namespace ringviz::gui {

namespace {

// Each view's tab label, in the language of the moment (its command-line name is in
// kCentreViewNames).
struct ViewLabel {
  CentreView view;
  const char* UiStrings::*label;
};
constexpr ViewLabel kViewLabels[] = {
    {CentreView::ring, &UiStrings::view_ring},
    {CentreView::memory, &UiStrings::view_memory},
    {CentreView::training, &UiStrings::view_training},
    {CentreView::compare, &UiStrings::view_compare},
    {CentreView::devices, &UiStrings::view_devices},
    {CentreView::job, &UiStrings::view_job},
};

const char* view_label(const UiStrings& text, CentreView view) {
  for (const ViewLabel& entry : kViewLabels)
    if (entry.view == view) return text.*(entry.label);
  return "?";
}

}  // namespace

static_assert(spellings_are_unique(kCentreViewNames) && lists_exactly(kCentreViewNames, kAllCentreViews));

void CentreViews::advance(double seconds) {
  memory_.advance(seconds);
  training_.advance(seconds);
}

bool CentreViews::animating() const {
  return memory_.playing() || (current_ == CentreView::training && training_.busy());
}

Rect CentreViews::draw_tab_bar(PanelLayout& panels, float ui_scale, Language language) {
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
      // The tab's ID is the view's name ("###memory"), not its label: a label in another
      // language would be a new tab, and ImGui would select the first one (Ring) in its place.
      const std::string label =
          std::string(view_label(ui_strings_for(language), view)) + "###" + std::string(centre_view_name(view));
      const bool open = ImGui::BeginTabItem(label.c_str(), nullptr, force ? ImGuiTabItemFlags_SetSelected : 0);
      mark_last_item("tab." + std::string(centre_view_name(view)));
      tabs_right_ = ImGui::GetItemRectMax().x;
      if (open) {
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
    case CentreView::devices: draw_devices_view(area, context); break;
    case CentreView::job: job_.draw(area, context); break;
    case CentreView::ring: break;
  }
}

}  // namespace ringviz::gui
