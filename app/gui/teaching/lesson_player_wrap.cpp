#include "app/gui/teaching/lesson_player_wrap.h"

#include <algorithm>
#include <cmath>

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

float text_width(const ImFont& font, float size, const std::string& text) {
  return const_cast<ImFont&>(font).CalcTextSizeA(size, 1e9f, 0.0f, text.c_str(), text.c_str() + text.size()).x;
}

}  // namespace

float caption_font_pixels(float height) {
  const float ideal = std::max(13.0f, height * 0.036f);
  return std::max(13.0f, std::round(ideal / 13.0f) * 13.0f);
}

std::vector<std::string> wrap_caption(const ImFont& font, float size, const std::string& text, float width) {
  // Break opportunities: after a space (the space is dropped), or before a CJK character.
  std::vector<std::string> lines;
  std::string line;      // the line being filled
  std::string pending;   // the unbreakable piece since the last opportunity
  auto flush_pending = [&](bool force_break_before) {
    if (pending.empty()) return;
    std::string candidate = line + pending;
    if (!line.empty() && (force_break_before || text_width(font, size, candidate) > width)) {
      while (!line.empty() && line.back() == ' ') line.pop_back();
      lines.push_back(line);
      line.clear();
      std::size_t start = pending.find_first_not_of(' ');
      candidate = start == std::string::npos ? std::string() : pending.substr(start);
    }
    // A single piece wider than the line: cut it wherever it overflows.
    while (text_width(font, size, candidate) > width && candidate.size() > 1) {
      std::size_t cut = 0, at = 0;
      while (at < candidate.size()) {
        std::size_t next = at;
        next_code_point(candidate, next);
        if (cut > 0 && text_width(font, size, candidate.substr(0, next)) > width) break;
        cut = next;
        at = next;
      }
      if (cut == 0 || cut >= candidate.size()) break;
      lines.push_back(candidate.substr(0, cut));
      candidate = candidate.substr(cut);
    }
    line = candidate;
    pending.clear();
  };
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t begin = at;
    const char32_t code = next_code_point(text, at);
    const std::string ch = text.substr(begin, at - begin);
    if (code == '\n') {
      flush_pending(false);
      lines.push_back(line);
      line.clear();
      continue;
    }
    if (breaks_anywhere(code) && !closing_punctuation(code)) flush_pending(false);
    pending += ch;
    // After a CJK character a line may break, unless punctuation that closes it follows.
    std::size_t peek = at;
    const char32_t next = at < text.size() ? next_code_point(text, peek) : 0;
    if (code == ' ' || (breaks_anywhere(code) && !closing_punctuation(next))) flush_pending(false);
  }
  flush_pending(false);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace ringviz::gui
