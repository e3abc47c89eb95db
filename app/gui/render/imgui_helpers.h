#pragma once
#include <cstdint>
#include <string>

#include <imgui.h>

#include "app/gui/render/colour.h"
#include "app/gui/layout/geometry.h"

namespace ringviz::gui {

inline ImVec2 to_imvec(Vec2 v) { return {v.x, v.y}; }
inline ImU32 to_imcol(Rgb c, float alpha = 1.0f) {
  return to_imgui(c, static_cast<std::uint8_t>(alpha * 255.0f + 0.5f));
}
inline ImVec4 to_imvec4(Rgb c, float alpha = 1.0f) {
  return {c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, alpha};
}

// A panel of the fixed layout: placed and sized by PanelLayout every frame, never moved,
// resized or saved by ImGui. Always pair with ImGui::End().
bool begin_panel(const char* id, const Rect& area, ImGuiWindowFlags extra = 0);

// Byte counts as people read them: "48 B", "1.5 KiB", "3.0 MiB".
std::string format_bytes(double bytes);

// Printf into a std::string (UI strings are printf formats).
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Small muted text that wraps at the panel edge.
void hint_text(const char* text);

}  // namespace ringviz::gui
