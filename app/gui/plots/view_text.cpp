#include "app/gui/plots/view_text.h"

#include <algorithm>
#include <cmath>

#include <imgui_internal.h>  // ImTextCharFromUtf8

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

namespace {

// Chinese, Japanese and Korean text has no spaces: a line may break between any two of its
// characters.
bool breaks_anywhere(unsigned int c) { return c >= 0x2E80; }

// Punctuation that never starts a line ("，" or "）" alone at the start of a line).
bool closes(unsigned int c) {
  for (unsigned int p : {0xFF0Cu, 0x3002u, 0xFF1Bu, 0xFF1Au, 0xFF01u, 0xFF1Fu, 0xFF09u, 0x3001u, 0x300Du, 0x300Fu, 0x2026u})
    if (c == p) return true;
  return false;
}

// Where the line that starts at `at` ends (`end_of_line`) and the next one starts (returned):
// at the last space or break between Chinese characters that keeps it within `width`, inside
// a word only when the word alone is wider.
const char* next_break(const char* at, const char* end, float width, const char*& end_of_line, bool& split_word) {
  split_word = false;
  ImFont* font = ImGui::GetFont();
  const float scale = ImGui::GetFontSize() / font->FontSize;
  float x = 0;
  const char* break_end = nullptr;
  const char* break_resume = nullptr;
  for (const char* p = at; p < end;) {
    unsigned int c = 0;
    const int length = std::max(1, ImTextCharFromUtf8(&c, p, end));
    if (c == '\n') {
      end_of_line = p;
      return p + length;
    }
    if (c == ' ') {
      break_end = p;
      break_resume = p + length;
    } else if (breaks_anywhere(c) && p > at && !closes(c)) {
      break_end = p;
      break_resume = p;
    }
    const float advance = font->GetCharAdvance(static_cast<ImWchar>(c)) * scale;
    // As ImGui::CalcTextSize rounds a width: up to the next whole pixel.
    if (c != ' ' && std::floor(x + advance + 0.99999f) > width && p > at) {
      if (break_end != nullptr) {
        end_of_line = break_end;
        return break_resume;
      }
      end_of_line = p;  // one word wider than the line
      split_word = true;
      return p;
    }
    x += advance;
    p += length;
    if (breaks_anywhere(c)) {
      // After a Chinese character, unless punctuation that may not start a line follows.
      unsigned int next = 0;
      if (p < end) ImTextCharFromUtf8(&next, p, end);
      if (!closes(next)) {
        break_end = p;
        break_resume = p;
      }
    }
  }
  end_of_line = end;
  return end;
}

}  // namespace

WrappedText wrap_text(std::string_view text, float first_width, float width) {
  WrappedText wrapped;
  wrapped.pitch = line_pitch(text);
  const char* at = text.data();
  const char* end = text.data() + text.size();
  while (at < end) {
    const float width_now = wrapped.lines.empty() ? first_width : width;
    const char* line_end = nullptr;
    bool split_word = false;
    const char* resume = next_break(at, end, width_now, line_end, split_word);
    if (wrapped.lines.empty() && first_width < width && split_word) {
      // Not even one word fits after the label: the text starts on the next line.
      wrapped.lines.emplace_back();
      continue;
    }
    std::string line(at, line_end);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    wrapped.width = std::max(wrapped.width, ImGui::CalcTextSize(line.c_str()).x);
    wrapped.lines.push_back(std::move(line));
    at = resume;
    while (at < end && *at == ' ') ++at;  // a break's spaces start no line
  }
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
