#include "app/gui/text/caption_wrap.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "core/model/text.h"

namespace ringviz::gui {

namespace {

// Characters a line may break before or after without a space: CJK ideographs, kana, and
// full-width punctuation (Chinese writes no spaces between words).
bool breaks_anywhere(char32_t code) {
  return (code >= 0x2E80 && code <= 0x9FFF) || (code >= 0xF900 && code <= 0xFAFF) ||
         (code >= 0xFF00 && code <= 0xFFEF) || (code >= 0x3000 && code <= 0x303F);
}

// Full-width punctuation that must not start a line (it stays with the word before it).
bool closing_punctuation(char32_t code) {
  return code == 0x3001 || code == 0x3002 || code == 0xFF0C || code == 0xFF1A || code == 0xFF1B ||
         code == 0xFF1F || code == 0xFF01 || code == 0xFF09 || code == 0x300D || code == 0x300F;
}

bool is_digit(char32_t code) { return code >= '0' && code <= '9'; }

// A letter or an ideograph: what a number's unit or label is made of.
bool is_word(char32_t code) {
  return (code >= 'A' && code <= 'Z') || (code >= 'a' && code <= 'z') || (code >= 0x3040 && code <= 0x9FFF) ||
         (code >= 0xF900 && code <= 0xFAFF);
}

// A space between a number and its unit or label is not a place to break: "112 GB", "GPU 0",
// "第 1 轮" stay on one line (a reader takes a "112" at a line's end for the whole figure). The
// spaces of a list ("1, 2, 3") still break.
bool binds_a_number(char32_t before, char32_t after) {
  return (is_digit(before) && is_word(after)) || (is_word(before) && is_digit(after));
}

// One code point's advance at `scale`, as ImFont::CalcTextSizeA adds it up.
float advance(const ImFont& font, float scale, char32_t code) {
  if (code == '\r') return 0.0f;  // CalcTextSizeA skips it
  const float base = code < static_cast<char32_t>(font.IndexAdvanceX.Size) ? font.IndexAdvanceX[static_cast<int>(code)]
                                                                            : font.FallbackAdvanceX;
  return base * scale;
}

// Text with the advance of each of its code points, so that widths are sums over what is
// added rather than a measurement of the whole line again (that made a long caption quadratic).
struct MeasuredText {
  std::string bytes;
  std::vector<std::size_t> ends;  // ends[i]: byte after code point i
  std::vector<float> advances;
  float width = 0;
  void clear() {
    bytes.clear();
    ends.clear();
    advances.clear();
    width = 0;
  }
  std::size_t start(std::size_t i) const { return i == 0 ? 0 : ends[i - 1]; }
  bool is_space(std::size_t i) const { return bytes[start(i)] == ' '; }
  // `from` plus its width up to its last glyph, added code point by code point as ImGui adds
  // a line up: a space it ends with is dropped where the line ends there, and measured with
  // whatever follows it on the same line.
  float width_to_last_glyph(float from = 0) const {
    std::size_t glyphs = ends.size();
    while (glyphs > 0 && is_space(glyphs - 1)) --glyphs;
    for (std::size_t i = 0; i < glyphs; ++i) from += advances[i];
    return from;
  }
  void append(std::string_view utf8, float advance_of) {
    bytes.append(utf8);
    ends.push_back(bytes.size());
    advances.push_back(advance_of);
    width += advance_of;
  }
};

// Ends `line` with "...", dropping code points from its end until that fits in `width`.
void mark_cut_short(const ImFont& font, float size, std::string& line, float width) {
  auto measure = [&](const std::string& s) {
    return const_cast<ImFont&>(font).CalcTextSizeA(size, 1e9f, 0.0f, s.c_str(), s.c_str() + s.size()).x;
  };
  while (!line.empty() && measure(line + "...") > width) {
    std::size_t last = line.size() - 1;
    while (last > 0 && (static_cast<unsigned char>(line[last]) & 0xC0) == 0x80) --last;  // a UTF-8 lead byte
    line.erase(last);
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  line += "...";
}

}  // namespace

float caption_font_pixels(float height) {
  const float ideal = std::max(13.0f, height * 0.036f);
  return std::max(13.0f, std::round(ideal / 13.0f) * 13.0f);
}

std::vector<std::string> wrap_caption(const ImFont& font, float size, const std::string& text, float width,
                                      std::size_t max_lines) {
  return wrap_caption_after(font, size, text, width, width, max_lines);
}

std::vector<std::string> wrap_caption_after(const ImFont& font, float size, const std::string& text, float first_width,
                                            float width, std::size_t max_lines) {
  // Break opportunities: after a space (the space is dropped), or before a CJK character.
  // A line's width is summed code point by code point from its start, in the order
  // CalcTextSizeA sums it, so a line that fits here measures the same there; each code point
  // is measured once: linear in the caption's length.
  const float scale = size / font.FontSize;
  std::vector<std::string> lines;
  std::string line;  // the line being filled
  float line_width = 0;
  MeasuredText pending;  // the unbreakable piece since the last opportunity
  bool mid_piece = false;  // `line` ends inside a piece wider than a line, which goes on
  auto end_line = [&](bool trim) {
    while (trim && !line.empty() && line.back() == ' ') line.pop_back();
    lines.push_back(line);
    line.clear();
    line_width = 0;
  };
  auto full = [&] { return lines.size() >= max_lines; };
  auto limit = [&] { return lines.empty() ? first_width : width; };  // of the line being filled
  auto flush_pending = [&](bool force_break_before) {
    if (pending.ends.empty() || full()) return;
    std::size_t i = 0;
    if (!line.empty() && !mid_piece) {
      if (force_break_before || pending.width_to_last_glyph(line_width) > limit()) {
        end_line(true);
        while (i < pending.ends.size() && pending.is_space(i)) ++i;  // no line starts with a space
      }
    } else if (line.empty() && lines.empty() && first_width < width && pending.width_to_last_glyph() > first_width) {
      // Not even the first piece fits beside the label: the text starts on the next line
      // rather than cut a word (or a number from its unit) after the label.
      end_line(false);
      if (full()) return;
    }
    // A piece wider than a whole line is cut wherever it overflows (each line keeps at least
    // one code point).
    for (; i < pending.ends.size(); ++i) {
      const float a = pending.advances[i];
      // A space past the end is no overflow: the line ends after it and drops it.
      if (!line.empty() && !pending.is_space(i) && line_width + a > limit()) end_line(false);
      if (full()) return;  // the rest of `pending` stays: the caption was cut short
      line.append(pending.bytes, pending.start(i), pending.ends[i] - pending.start(i));
      line_width += a;
    }
    pending.clear();
    mid_piece = false;
  };
  std::size_t at = 0;
  char32_t previous = 0;
  bool glued = false;  // the last code point was a space that binds a number to what follows
  while (at < text.size() && !full()) {
    const std::size_t begin = at;
    const char32_t code = next_code_point(text, at);
    const char32_t before = previous;
    previous = code;
    if (code == '\n') {
      flush_pending(false);
      if (!full()) end_line(false);
      continue;
    }
    // Before a CJK character a line may break, unless a space binds it to the number before.
    if (breaks_anywhere(code) && !closing_punctuation(code) && !glued) flush_pending(false);
    pending.append(std::string_view(text).substr(begin, at - begin), advance(font, scale, code));
    // After a CJK character a line may break, unless punctuation that closes it follows.
    std::size_t peek = at;
    const char32_t next = at < text.size() ? next_code_point(text, peek) : 0;
    const char32_t after_next = peek < text.size() ? next_code_point(text, peek) : 0;
    glued = code == ' ' && binds_a_number(before, next);
    // An ideograph followed by a space that binds it to a number ("第 1") is no break either.
    const bool ideograph_breaks = breaks_anywhere(code) && !closing_punctuation(next) &&
                                  !(next == ' ' && binds_a_number(code, after_next));
    if ((code == ' ' && !glued) || ideograph_breaks) {
      flush_pending(false);
    } else if (pending.width > width) {
      // Already wider than a line: cut the full lines off now rather than after the whole
      // piece, so that a caption cut short never reads a huge word to its end.
      flush_pending(false);
      mid_piece = true;
    }
  }
  flush_pending(false);
  if (full()) {
    // Cut short: the last line ends in "..." so that nobody takes it for the whole caption.
    const bool more = at < text.size() || !pending.ends.empty() || !line.empty();
    if (more && !lines.empty()) mark_cut_short(font, size, lines.back(), width);
    return lines;
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace ringviz::gui
