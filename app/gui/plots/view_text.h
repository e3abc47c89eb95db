#pragma once
// Text the training and compare views place themselves: measured by its ink (the glyphs as
// drawn, which is what an audience sees and what tests/gui/text_overlap.py checks), wrapped
// with enough room between lines for Chinese glyphs (merged into the UI font a little larger
// and lower than the Latin ones, so their ink reaches past ImGui's line height), and placed
// only where no other text already is.
#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>

#include "app/gui/layout/geometry.h"

namespace ringviz::gui {

// The vertical extent of `text`'s glyphs in the current font, relative to the top of its line:
// `top` <= 0 where a glyph reaches above the line, `bottom` >= the font size where one reaches
// below it.
struct InkExtent {
  float top = 0;
  float bottom = 0;
  float height() const { return bottom - top; }
};
InkExtent ink_extent(std::string_view text);

// The distance from one line's top to the next that keeps the lines' ink apart for `text`
// (the font size for Latin text; more for Chinese).
float line_pitch(std::string_view text);

// The rectangle `text` drawn with its line's top-left at `at` covers: its advance wide, its
// ink tall.
Rect text_box(ImVec2 at, std::string_view text);

// `text` broken into lines no wider than `width` by the captions' rule (text/caption_wrap.h:
// at spaces, but never between a number and its unit or label; Chinese between characters; a
// word longer than the width where it overflows), with the pitch between them.
struct WrappedText {
  std::vector<std::string> lines;
  float width = 0;   // the widest line
  float pitch = 0;   // line top to line top
  float height() const { return lines.empty() ? 0.0f : pitch * static_cast<float>(lines.size()); }
};
WrappedText wrap_text(std::string_view text, float width);
// The same with a first line of its own width (text that starts after a label on its line).
WrappedText wrap_text(std::string_view text, float first_width, float width);

// Draws `wrapped` with its first line's top-left at `at`.
void draw_wrapped(ImDrawList* dl, ImVec2 at, ImU32 colour, const WrappedText& wrapped);

// A wrapped paragraph at the ImGui cursor, `width` wide, that moves the cursor below it (for
// text among a window's widgets: ImGui's own wrapping steps lines by the font size only).
void paragraph(std::string_view text, float width, ImU32 colour);

// The texts of one view drawn so far, so that a label that would cover another, or leave
// `bounds`, is left out rather than drawn on top.
class TextBoard {
 public:
  explicit TextBoard(const Rect& bounds) : bounds_(bounds) {}
  const Rect& bounds() const { return bounds_; }
  // Marks `area` as taken (a text drawn another way, a legend).
  void reserve(const Rect& area) { taken_.push_back(area); }
  // True when `box` lies inside the bounds and touches nothing taken.
  bool free(const Rect& box) const;
  // Draws `text` at `at` (its line's top-left) and reserves it when it is free; false, and
  // nothing drawn, otherwise.
  bool place(ImDrawList* dl, ImVec2 at, ImU32 colour, std::string_view text);
  // Draws `wrapped` at `at` when all of it is free.
  bool place(ImDrawList* dl, ImVec2 at, ImU32 colour, const WrappedText& wrapped);

 private:
  Rect bounds_;
  std::vector<Rect> taken_;
};

}  // namespace ringviz::gui
