#pragma once
// Caption layout: the lesson player's captions, the recording's title cards, the Memory tab's
// header and the training, compare and link views' text (plots/view_text.h) wrap by one rule
// (a number stays with its unit or label), apart
// from any of them so that it can be tested with nothing but a font atlas (no GL, no GUI).
#include <cstdint>
#include <string>
#include <vector>

#include <imgui.h>

namespace ringviz::gui {

// Splits `text` into lines no wider than `width` at `size` pixels of `font`: at spaces, and
// between any two CJK characters (Chinese has no spaces); a word wider than a line is cut.
// At most `max_lines` lines: a caption cut short ends in "...", and the text after the last
// line is not even looked at, so that a huge caption costs no more per frame than a short one.
// Linear in the length of the text it lays out.
std::vector<std::string> wrap_caption(const ImFont& font, float size, const std::string& text, float width,
                                      std::size_t max_lines = SIZE_MAX);

// The same with a first line of its own width (text that starts after a label on its line):
// where its first piece (a word, a number with its unit) is wider than `first_width` but not
// than `width`, the first line is empty and the text starts on the next.
std::vector<std::string> wrap_caption_after(const ImFont& font, float size, const std::string& text, float first_width,
                                            float width, std::size_t max_lines = SIZE_MAX);

// The caption font's pixel size for a frame `height` pixels tall: about 3.6% of the height,
// on whole multiples of the default font's 13 pixels so that its bitmap-style glyphs stay sharp.
float caption_font_pixels(float height);

}  // namespace ringviz::gui
