// The tab bar above the centre area and the switch between the ring and the other views.
#include "app/gui/views/centre_view.h"

#include <imgui.h>

#include "app/gui/runtime/gui_app.h"
#include "app/gui/views/centre_view_draw.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

namespace {

// The view the GUI opens on (--view); set once before the GuiApp exists.
CentreView g_startup_view = CentreView::ring;

const char* view_label(CentreView view) {
  const UiStrings& t = view_strings();
  switch (view) {
    case CentreView::ring: return t.view_ring;
    case CentreView::memory: return t.view_memory;
    case CentreView::training: return t.view_training;
    case CentreView::compare: return t.view_compare;
  }
  return "?";
}

}  // namespace

static_assert(spellings_are_unique(kCentreViewNames) && lists_exactly(kCentreViewNames, kAllCentreViews));

bool parse_centre_view(std::string_view text, CentreView& out) { return find_enum(kCentreViewNames, text, out); }

void set_startup_view(CentreView view) { g_startup_view = view; }
CentreView startup_view() { return g_startup_view; }

void CentreViews::advance(double seconds) {
  memory_.advance(seconds);
  training_.advance(seconds);
}

bool CentreViews::animating() const {
  return memory_.playing() || (current_ == CentreView::training && training_.busy());
}

void GuiApp::draw_centre() {
  const float strip = std::round(ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y * 1.2f);
  // The tabs sit above the caption; the ring's caption and view move down to make room.
  const Rect centre{panels_.caption.x, panels_.caption.y, panels_.caption.w,
                    panels_.view.bottom() - panels_.caption.y};
  const Rect tabs{centre.x, centre.y, centre.w, std::min(strip, centre.h)};
  panels_.caption.y += tabs.h;
  panels_.view.y += tabs.h;
  panels_.view.h = std::max(0.0f, panels_.view.h - tabs.h);

  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetStyle().WindowPadding.x, 4.0f * ui_scale()));
  begin_panel("##view_tabs", tabs, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar |
                                       ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleVar();
  // A view chosen from outside (the lesson player, --view, "open in ring view") is pushed
  // into the tab bar until the tab bar reports it, since ImGui applies a selection a frame late.
  CentreView reported = views_.current();
  if (ImGui::BeginTabBar("##views")) {
    for (CentreView view : kAllCentreViews) {
      const bool force = view == views_.current() && view != tab_reported_;
      if (ImGui::BeginTabItem(view_label(view), nullptr, force ? ImGuiTabItemFlags_SetSelected : 0)) {
        reported = view;
        ImGui::EndTabItem();
      }
    }
    ImGui::EndTabBar();
  }
  if (tab_reported_ == views_.current()) views_.set_current(reported);  // a click on a tab
  tab_reported_ = reported;
  ImGui::End();

  const Rect below{centre.x, tabs.bottom(), centre.w, std::max(0.0f, centre.bottom() - tabs.bottom())};
  if (views_.current() == CentreView::ring) {
    draw_caption(panels_.caption);
    draw_ring_view(panels_.view);
    return;
  }
  ViewContext context;
  context.theme = preferences_.theme;
  context.palette = preferences_.palette;
  context.scale = ui_scale();
  context.session = model_.ready() ? &model_.session() : nullptr;
  context.moment = playback_.moment();
  context.open_in_ring = [this](const Config& config, const std::string& notice) {
    if (!apply_config(config, backend_choice_)) return;
    playback_.go_to_start();
    set_centre_view(CentreView::ring);
    add_notice(notice);
  };
  context.choose_algorithm = [this](Algorithm algorithm) {
    Config config = draft_;
    config.algorithm = algorithm;
    // The trees only have AllReduce: switch the operation rather than refuse the click.
    if (!algorithm_supports(algorithm, config.op)) config.op = Op::allreduce;
    apply_config(config, backend_choice_);
  };
  switch (views_.current()) {
    case CentreView::memory: views_.memory().draw(below, context); break;
    case CentreView::training: views_.training().draw(below, context); break;
    case CentreView::compare: views_.compare().draw(below, context); break;
    case CentreView::ring: break;
  }
}

}  // namespace ringviz::gui
