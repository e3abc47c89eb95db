#include "app/gui/inspect/item_marks.h"

#include <imgui.h>

namespace ringviz::gui {

namespace {
bool enabled = false;
std::map<std::string, Rect>& marks() {
  static std::map<std::string, Rect> all;
  return all;
}
}  // namespace

void set_item_marks_enabled(bool on) { enabled = on; }
bool item_marks_enabled() { return enabled; }
void clear_item_marks() { marks().clear(); }

void mark_last_item(const std::string& name) {
  if (!enabled || !ImGui::IsItemVisible()) return;  // a row scrolled away cannot be clicked
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  marks()[name] = Rect{min.x, min.y, max.x - min.x, max.y - min.y};
}

void mark_rect(const std::string& name, const Rect& rect) {
  if (enabled) marks()[name] = rect;
}

const std::map<std::string, Rect>& item_marks() { return marks(); }

}  // namespace ringviz::gui
