#include "app/gui/render/imgui_helpers.h"

#include <cstdarg>
#include <cstdio>

#include "core/algorithms/unit_words.h"

namespace ringviz::gui {

bool begin_panel(const char* id, const Rect& area, ImGuiWindowFlags extra) {
  ImGui::SetNextWindowPos(ImVec2(area.x, area.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(area.w, area.h), ImGuiCond_Always);
  constexpr ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                     ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                     ImGuiWindowFlags_NoBringToFrontOnFocus |
                                     // GuiApp clears the whole frame to the panel colour first,
                                     // far cheaper than a textured quad per panel on llvmpipe.
                                     ImGuiWindowFlags_NoBackground;
  return ImGui::Begin(id, nullptr, fixed | extra);
}

std::string format_bytes(double bytes) { return format_binary_bytes(bytes); }

std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  const int length = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string text(static_cast<std::size_t>(length > 0 ? length : 0), '\0');
  if (length > 0) std::vsnprintf(text.data(), text.size() + 1, fmt, args);
  va_end(args);
  return text;
}

void hint_text(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

}  // namespace ringviz::gui
