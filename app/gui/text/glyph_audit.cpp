#include "app/gui/text/glyph_audit.h"

#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app/gui/text/font_loader.h"
#include "app/gui/text/strings.h"
#include "core/model/text.h"

namespace ringviz::gui {

namespace {

int g_fallbacks_last_frame = 0;

bool is_layout(char32_t point) { return point == '\n' || point == '\r' || point == '\t'; }

}  // namespace

std::vector<char32_t> missing_code_points(const ImFont& font, std::string_view utf8) {
  std::vector<char32_t> missing;
  for (std::size_t at = 0; at < utf8.size();) {
    const char32_t point = next_code_point(utf8, at);
    if (is_layout(point)) continue;
    // ImGui 1.86 stores 16-bit code points: anything above the BMP is never drawn.
    if (point > 0xFFFF || font.FindGlyphNoFallback(static_cast<ImWchar>(point)) == nullptr) missing.push_back(point);
  }
  std::sort(missing.begin(), missing.end());
  missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
  return missing;
}

std::vector<char32_t> missing_glyphs_now(Language language) {
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  if (atlas == nullptr || atlas->Fonts.Size == 0) return {};
  return missing_code_points(*atlas->Fonts[0], glyph_text(language));
}

int count_fallback_glyphs(const ImDrawData& frame) {
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  if (atlas == nullptr) return 0;
  std::vector<const ImFontGlyph*> fallbacks;
  for (int i = 0; i < atlas->Fonts.Size; ++i) {
    const ImFont* font = atlas->Fonts[i];
    if (font->FallbackGlyph == nullptr) continue;
    // A font whose fallback is "?" cannot be audited: for the UI font that makes the count
    // unknown; a Latin-only caption font (an English lesson) is left out.
    if (font->FallbackChar != static_cast<ImWchar>(kReplacementCharacter)) {
      if (i == 0) return -1;
      continue;
    }
    fallbacks.push_back(font->FallbackGlyph);
  }
  int count = 0;
  // A glyph is a quad of four vertices: top-left (U0, V0), top-right, bottom-right (U1, V1),
  // bottom-left. A glyph clipped by the CPU gets other coordinates and is not counted.
  for (int l = 0; l < frame.CmdListsCount; ++l) {
    const ImVector<ImDrawVert>& vertices = frame.CmdLists[l]->VtxBuffer;
    for (int v = 0; v + 3 < vertices.Size; ++v) {
      for (const ImFontGlyph* glyph : fallbacks) {
        const ImDrawVert& a = vertices[v];
        const ImDrawVert& c = vertices[v + 2];
        if (a.uv.x == glyph->U0 && a.uv.y == glyph->V0 && c.uv.x == glyph->U1 && c.uv.y == glyph->V1 &&
            vertices[v + 1].uv.x == glyph->U1 && vertices[v + 3].uv.x == glyph->U0) {
          ++count;
          v += 3;
          break;
        }
      }
    }
  }
  return count;
}

void note_frame_glyphs(const ImDrawData& frame) { g_fallbacks_last_frame = count_fallback_glyphs(frame); }

int fallback_glyphs_last_frame() { return g_fallbacks_last_frame; }

std::string describe_code_point(char32_t point) {
  char text[16];
  std::snprintf(text, sizeof text, "U+%04X", static_cast<unsigned>(point));
  std::string described = std::string(text) + " ";
  append_utf8(described, point);
  return described;
}

}  // namespace ringviz::gui
