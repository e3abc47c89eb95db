#pragma once
#include "app/gui/theme.h"

namespace ringviz::gui {

// ImGui's default font is a 13-pixel bitmap design; rasterising it at 13 x scale (instead of
// scaling the drawn text) keeps it crisp on HiDPI monitors and at larger text sizes.
inline constexpr float kBaseFontPixels = 13.0f;

// Rebuilds the font atlas (and the renderer's font texture when it already exists) and the
// style for `scale`. Call between frames, never inside NewFrame ... Render.
void rebuild_fonts_and_style(float scale, ThemeKind theme);

}  // namespace ringviz::gui
