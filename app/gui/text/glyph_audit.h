#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/model/text.h"

struct ImFont;
struct ImDrawData;

// Finding text the font atlas cannot draw. ImGui draws a character it has no glyph for as the
// font's fallback glyph, which looks like a stray "?" and is easy to miss in a screenshot. Two
// checks make it visible to tests and to `--dump-layout` (`missing_glyphs`):
//  - by string: which code points of a text the font lacks;
//  - by frame: how many fallback glyphs the last frame drew, read from its draw data. The atlas
//    includes U+FFFD (font_loader.*), so the fallback glyph is that "replacement character" and
//    a real "?" in the text is not mistaken for a missing glyph.

namespace ringviz::gui {

// The code points of `utf8` that `font` has no glyph for, sorted, without repeats. Line breaks
// and tabs are layout, not glyphs, and are not reported.
std::vector<char32_t> missing_code_points(const ImFont& font, std::string_view utf8);

// Every code point `language`'s text lacks in the current ImGui font (the UI
// strings, lessons, core phrases and the text registered at run time): the `missing_glyphs`
// of the layout dump. Empty when the atlas is complete.
std::vector<char32_t> missing_glyphs_now(Language language);

// Counts the fallback glyphs in a finished frame's draw data (every font of the atlas); the
// frame host calls it after each Render. -1 when the UI font's fallback glyph is a plain "?"
// (no U+FFFD in the atlas: the Chinese font is missing), so drawn question marks cannot be told
// apart; other fonts without U+FFFD (an English lesson's caption font) are left out.
int count_fallback_glyphs(const ImDrawData& frame);
void note_frame_glyphs(const ImDrawData& frame);
int fallback_glyphs_last_frame();

// "U+4E2D 中": how the dump and test messages name a code point.
std::string describe_code_point(char32_t point);

}  // namespace ringviz::gui
