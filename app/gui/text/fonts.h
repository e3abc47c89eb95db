#pragma once
#include "app/gui/render/theme.h"
#include "core/model/text.h"

namespace ringviz::gui {

// Rebuilds the font atlas (and the renderer's font texture when it already exists) and the
// style for `scale`, with the glyphs of `language`. Call between frames, never inside
// NewFrame ... Render. Returns the language the atlas covers: English when the Chinese font is
// unreadable, so that the caller shows English rather than boxes.
Language rebuild_fonts_and_style(float scale, ThemeKind theme, Language language);
// False when the atlas was built for another scale or language, or before more glyph text was
// registered (font_loader.h): the host should rebuild between frames.
bool fonts_current(float scale, Language language);

// Switches the font texture to nearest-texel sampling (once per texture). Text is drawn on
// whole pixels with the atlas at 1:1, so it looks the same, and a software rasteriser
// (llvmpipe) shades every ImGui pixel noticeably faster than with bilinear filtering.
// Call inside a frame, after the renderer backend's NewFrame; saves and restores the binding.
void prefer_nearest_font_sampling();

}  // namespace ringviz::gui
