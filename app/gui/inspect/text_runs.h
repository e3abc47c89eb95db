#pragma once
#include <string>
#include <vector>

#include "app/gui/layout/geometry.h"

struct ImDrawData;
struct ImFont;
struct ImFontAtlas;

// Every piece of text a finished frame drew, read back from its draw data: the layout dump's
// "texts", from which tests prove that no two texts overlap and none is cut off
// (docs/architecture.md, "Text in the layout dump").
//
// Reading the draw data rather than asking each panel catches every text however it was
// drawn: ImGui's widgets, the views' own ImDrawList::AddText labels, the lesson's caption font,
// Chinese glyphs merged into the UI font. ImGui draws a glyph as one quad (four vertices,
// indices v, v+1, v+2, v, v+2, v+3) whose UV rectangle is the glyph's in the font atlas, so a
// glyph is recognised by its UVs; the quad's size gives the scale it was drawn at, and the
// glyph's metrics give back the pen position. Glyphs that follow one another on one pen line
// (same font and scale, the next starting where the previous one's advance ends) are one run.
// Solid opaque rectangles (single-colour quads) drawn later are noted too, to tell which texts
// they cover.

namespace ringviz::gui {

struct TextRun {
  Rect rect;          // the union of the glyph quads as drawn (after any clipping)
  std::string text;   // UTF-8; a gap of one space's advance between glyphs reads as a space
  bool clipped = false;  // a glyph was cut by the CPU or reaches past its draw command's clip rectangle
  // Wholly under an opaque rectangle drawn after it (a stage's title card over the view):
  // drawn, but nobody sees it.
  bool hidden = false;
  const ImFont* font = nullptr;
  float pixels = 0;   // the text's size: the font's size times the scale it was drawn at
};

// The runs of `frame` in drawing order, recognising the glyphs of every font in `atlas`
// (commands that sample another texture are skipped). The atlas must be the one the frame was
// built with: between ImGui::Render() and the next NewFrame().
std::vector<TextRun> find_text_runs(const ImDrawData& frame, const ImFontAtlas& atlas);

}  // namespace ringviz::gui
