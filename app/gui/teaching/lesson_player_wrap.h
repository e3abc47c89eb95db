#pragma once
// Caption layout for the lesson player, apart from it so that it can be tested with nothing
// but a font atlas (no GL, no GUI).
#include <string>
#include <vector>

#include <imgui.h>

namespace ringviz::gui {

// Splits `text` into lines no wider than `width` at `size` pixels of `font`: at spaces, and
// between any two CJK characters (Chinese has no spaces); a word wider than a line is cut.
std::vector<std::string> wrap_caption(const ImFont& font, float size, const std::string& text, float width);

// The caption font's pixel size for a frame `height` pixels tall: about 3.6% of the height,
// on whole multiples of the default font's 13 pixels so that its bitmap-style glyphs stay sharp.
float caption_font_pixels(float height);

}  // namespace ringviz::gui
