#include "app/gui/views/too_small_notice.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "app/gui/layout/panel_layout.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

void draw_centred_notice(ImDrawList* draw_list, const Rect& area, const char* text) {
  if (area.w < 1.0f || area.h < 1.0f) return;
  ImFont* font = ImGui::GetFont();
  const float font_size = ImGui::GetFontSize();
  const float pad = std::min(font_size * 0.5f, area.w * 0.1f);
  const float wrap = std::max(1.0f, area.w - 2 * pad);
  const ImVec2 size = font->CalcTextSizeA(font_size, FLT_MAX, wrap, text);
  // Centred, but never starting above or left of the area: a long notice is cut at the bottom.
  const ImVec2 at{std::round(area.x + std::max(pad, (area.w - size.x) * 0.5f)),
                  std::round(area.y + std::max(0.0f, (area.h - size.y) * 0.5f))};
  draw_list->PushClipRect({area.x, area.y}, {area.right(), area.bottom()}, true);
  draw_list->AddText(font, font_size, at, ImGui::GetColorU32(ImGuiCol_Text), text, nullptr, wrap);
  draw_list->PopClipRect();
}

void draw_window_too_small(float width, float height, LeastWindow least, Language language) {
  const std::string text = format(ui_strings_for(language).window_too_small, static_cast<int>(std::ceil(least.width)),
                                  static_cast<int>(std::ceil(least.height)));
  draw_centred_notice(ImGui::GetForegroundDrawList(), {0, 0, width, height}, text.c_str());
}

}  // namespace ringviz::gui
