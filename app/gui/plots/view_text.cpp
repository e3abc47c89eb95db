#include "app/gui/plots/view_text.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui_internal.h>  // ImTextCharFromUtf8

#include "app/gui/text/caption_wrap.h"

namespace ringviz::gui {

namespace {

// Calls `visit(glyph)` for each character of `text` the current font draws.
template <typename Visit>
void for_each_glyph(std::string_view text, Visit visit) {
  ImFont* font = ImGui::GetFont();
  const char* at = text.data();
  const char* end = text.data() + text.size();
  while (at < end) {
    unsigned int c = 0;
    const int length = ImTextCharFromUtf8(&c, at, end);
    if (length <= 0) break;
    at += length;
    if (c == '\n' || c == '\r') continue;
    if (const ImFontGlyph* glyph = font->FindGlyph(static_cast<ImWchar>(c)); glyph && glyph->Visible) visit(*glyph);
  }
}

}  // namespace

InkExtent ink_extent(std::string_view text) {
  const float size = ImGui::GetFontSize();
  const float scale = size / ImGui::GetFont()->FontSize;
  InkExtent ink{0, size};
  for_each_glyph(text, [&](const ImFontGlyph& glyph) {
    ink.top = std::min(ink.top, glyph.Y0 * scale);
    ink.bottom = std::max(ink.bottom, glyph.Y1 * scale);
  });
  ink.top = std::floor(ink.top);
  ink.bottom = std::ceil(ink.bottom);
  return ink;
}

float line_pitch(std::string_view text) { return ink_extent(text).height(); }

Rect text_box(ImVec2 at, std::string_view text) {
  const InkExtent ink = ink_extent(text);
  const float width = ImGui::CalcTextSize(text.data(), text.data() + text.size()).x;
  return {at.x, at.y + ink.top, width, ink.height()};
}

WrappedText wrap_text(std::string_view text, float width) { return wrap_text(text, width, width); }

WrappedText wrap_text(std::string_view text, float first_width, float width) {
  WrappedText wrapped;
  wrapped.pitch = line_pitch(text);
  // The captions' rule (a number stays with its unit or label, Chinese breaks between
  // characters but never before a comma). ImGui measures a line rounded up to a whole pixel:
  // a line that sums to at most the whole pixels of a width measures within it.
  wrapped.lines = wrap_caption_after(*ImGui::GetFont(), ImGui::GetFontSize(), std::string(text), std::floor(first_width),
                                     std::floor(width));
  for (const std::string& line : wrapped.lines)
    wrapped.width = std::max(wrapped.width, ImGui::CalcTextSize(line.c_str()).x);
  return wrapped;
}

void draw_wrapped(ImDrawList* dl, ImVec2 at, ImU32 colour, const WrappedText& wrapped) {
  for (std::size_t i = 0; i < wrapped.lines.size(); ++i)
    dl->AddText(ImVec2(std::floor(at.x), std::floor(at.y) + std::round(wrapped.pitch) * static_cast<float>(i)), colour,
                wrapped.lines[i].c_str());
}

void paragraph(std::string_view text, float width, ImU32 colour) {
  const WrappedText wrapped = wrap_text(text, width);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const InkExtent ink = ink_extent(text);
  // Shifted down by any ink above the line, so it stays clear of the widget row above.
  draw_wrapped(ImGui::GetWindowDrawList(), ImVec2(at.x, at.y - ink.top), colour, wrapped);
  ImGui::Dummy(ImVec2(std::max(1.0f, wrapped.width), wrapped.height() - ink.top));
}

bool TextBoard::free(const Rect& box) const {
  constexpr float kSlack = 0.5f;  // glyphs sit on whole pixels
  if (box.x < bounds_.x - kSlack || box.y < bounds_.y - kSlack || box.right() > bounds_.right() + kSlack ||
      box.bottom() > bounds_.bottom() + kSlack)
    return false;
  // One pixel apart at least, so that neighbours never read as one word.
  const Rect margin{box.x - 1, box.y, box.w + 2, box.h};
  return std::none_of(taken_.begin(), taken_.end(), [&](const Rect& other) { return other.overlaps(margin); });
}

bool TextBoard::place(ImDrawList* dl, ImVec2 at, ImU32 colour, std::string_view text) {
  // Where ImGui puts the glyphs: it snaps the pen to whole pixels, rounding down.
  at = ImVec2(std::floor(at.x), std::floor(at.y));
  const Rect box = text_box(at, text);
  if (!free(box)) return false;
  const std::string copy(text);
  dl->AddText(at, colour, copy.c_str());
  taken_.push_back(box);
  return true;
}

bool TextBoard::place(ImDrawList* dl, ImVec2 at, ImU32 colour, const WrappedText& wrapped) {
  if (wrapped.lines.empty()) return true;
  at = ImVec2(std::floor(at.x), std::floor(at.y));
  std::string all;
  for (const std::string& line : wrapped.lines) all += line;
  const InkExtent ink = ink_extent(all);
  const Rect box{at.x, at.y + ink.top, wrapped.width, wrapped.pitch * static_cast<float>(wrapped.lines.size() - 1) + ink.height()};
  if (!free(box)) return false;
  draw_wrapped(dl, at, colour, wrapped);
  taken_.push_back(box);
  return true;
}

}  // namespace ringviz::gui
