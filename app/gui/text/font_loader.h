#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/text.h"

struct ImFontAtlas;

// The font atlas for a UI language. Latin text always uses Dear ImGui's default font; Chinese
// glyphs come from WenQuanYi Micro Hei (fonts-wqy-microhei), merged into the same font, but
// only the characters the app can show: every UI string of both languages, the lessons' titles
// and captions, core's phrases, and whatever was registered later (glyph_text()). That keeps the atlas to a few
// hundred glyphs (a full CJK range would be tens of thousands, megabytes of texture).

namespace ringviz::gui {

// ImGui's default font is a 13-pixel bitmap design; rasterising it at 13 x scale (instead of
// scaling the drawn text) keeps it crisp on HiDPI monitors and at larger text sizes.
inline constexpr float kBaseFontPixels = 13.0f;

inline constexpr const char* kChineseFontPath = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc";
// Points at another font file (tests use a missing one to exercise the fallback to English).
inline constexpr const char* kChineseFontEnv = "RINGVIZ_CJK_FONT";

// $RINGVIZ_CJK_FONT when set, otherwise kChineseFontPath.
std::string chinese_font_path();
// The font file's bytes, read once per path and kept for every later rebuild; null with
// `error` saying what to install when it cannot be read.
const std::vector<unsigned char>* chinese_font_data(std::string& error);

// The language names as the language menu shows them (each in its own language).
std::string_view language_display_name(Language language);

// Every character the atlas for `language` covers, as UTF-8: the English UI strings, lessons
// and core phrases, for Chinese the Chinese ones too (Chinese screens show English names), the
// language names, and the text registered at run time.
std::string glyph_text(Language language);
std::string chinese_glyph_text();  // glyph_text(Language::zh)
// Text a view will show that is not in UiStrings (a lesson opened from another folder, say).
// The next atlas build covers it; glyph_text_generation() changes when it added characters,
// so the host knows to rebuild.
void register_glyph_text(std::string_view utf8);
std::uint64_t glyph_text_generation();

// The code points of a UTF-8 string above ASCII, sorted, without repeats.
std::vector<char32_t> non_ascii_code_points(std::string_view utf8);

// Fills `atlas` (cleared first) with the fonts for `language` at `scale` and builds it (CPU
// only: uploading the texture is the renderer's business). Without the Chinese font it builds
// the Latin font alone and returns false with `error`.
bool build_font_atlas(ImFontAtlas& atlas, float scale, Language language, std::string& error);

}  // namespace ringviz::gui
