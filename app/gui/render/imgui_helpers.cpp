#include "app/gui/render/imgui_helpers.h"

#include <cstdarg>
#include <cstdio>

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

std::string format_bytes(double bytes) {
  char text[32];
  if (bytes < 1024) std::snprintf(text, sizeof text, "%.0f B", bytes);
  else if (bytes < 1024.0 * 1024) std::snprintf(text, sizeof text, "%.1f KiB", bytes / 1024);
  else if (bytes < 1024.0 * 1024 * 1024) std::snprintf(text, sizeof text, "%.1f MiB", bytes / (1024.0 * 1024));
  else std::snprintf(text, sizeof text, "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
  return text;
}

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
