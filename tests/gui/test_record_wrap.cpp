// Caption wrapping for the lesson player: measured with a real font atlas (CPU only).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/text/caption_wrap.h"
#include "app/gui/views/iteration/iteration_words.h"
#include "core/model/text.h"
#include "core/training/iteration_model.h"

using ringviz::gui::caption_font_pixels;
using ringviz::gui::wrap_caption;

namespace {

struct DefaultFont {
  ImFontAtlas atlas;
  ImFont* font = nullptr;
  DefaultFont() {
    ImFontConfig config;
    config.SizePixels = 26;
    font = atlas.AddFontDefault(&config);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    atlas.GetTexDataAsAlpha8(&pixels, &w, &h);  // builds the glyphs
  }
  float width(const std::string& s) const { return font->CalcTextSizeA(26, 1e9f, 0, s.c_str(), s.c_str() + s.size()).x; }
};

std::string join(const std::vector<std::string>& lines, const char* separator) {
  std::string all;
  for (std::size_t i = 0; i < lines.size(); ++i) all += (i ? separator : "") + lines[i];
  return all;
}

}  // namespace

TEST_CASE("an English caption wraps at spaces, every line fits, and no word is lost or split") {
  const DefaultFont f;
  const std::string caption =
      "Round 1: every GPU sends its own block to the right. GPU 0 now holds A and D, GPU 1 holds B and A.";
  const float limit = f.width("every GPU sends its own block");
  const auto lines = wrap_caption(*f.font, 26, caption, limit);
  CHECK(lines.size() >= 3);
  for (const std::string& line : lines) {
    CAPTURE(line);
    CHECK(f.width(line) <= limit);
    CHECK(!line.empty());
    CHECK(line.front() != ' ');
    CHECK(line.back() != ' ');
  }
  CHECK(join(lines, " ") == caption);
}

TEST_CASE("a caption that fits stays one line, an explicit newline starts another") {
  const DefaultFont f;
  CHECK(wrap_caption(*f.font, 26, "Short.", 1000) == std::vector<std::string>{"Short."});
  CHECK(wrap_caption(*f.font, 26, "One.\nTwo.", 1000) == std::vector<std::string>{"One.", "Two."});
}

TEST_CASE("Chinese wraps between characters and never starts a line with a comma or full stop") {
  const DefaultFont f;  // no CJK glyphs: each measures as the fallback glyph, which is enough here
  const std::string caption = "第 1 轮：每张 GPU 把自己的那块发给右邻居。现在 GPU 0 持有 A 和 D，GPU 1 持有 B 和 A。";
  const float limit = f.width("0123456789");
  const auto lines = wrap_caption(*f.font, 26, caption, limit);
  CHECK(lines.size() >= 3);
  for (const std::string& line : lines) {
    CAPTURE(line);
    CHECK(f.width(line) <= limit);
    CHECK(line.rfind("，", 0) != 0);
    CHECK(line.rfind("。", 0) != 0);
  }
  std::string without_spaces, joined = join(lines, "");
  for (char c : caption) if (c != ' ') without_spaces += c;
  std::string joined_without_spaces;
  for (char c : joined) if (c != ' ') joined_without_spaces += c;
  CHECK(joined_without_spaces == without_spaces);
}

TEST_CASE("a number stays with its unit or label, English or Chinese, while a list of numbers still breaks") {
  const DefaultFont f;
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  // Where one line ends and the next begins, a number and a word never part.
  auto check_no_number_parted = [&](const std::vector<std::string>& lines) {
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
      CAPTURE(lines[i]);
      CAPTURE(lines[i + 1]);
      REQUIRE(!lines[i].empty());
      REQUIRE(!lines[i + 1].empty());
      const char end = lines[i].back(), start = lines[i + 1].front();
      CHECK_FALSE((is_digit(end) && is_letter(start)));
      CHECK_FALSE((is_letter(end) && is_digit(start)));
    }
  };
  // Each line can hold "each GPU holds 112" but not its unit as well: without the rule the line
  // would end at "112" and "GB" start the next.
  const std::string english = "each GPU holds 112 GB of states on GPU 0 and 80 GB free";
  for (const char* room : {"each GPU holds 112 ", "of states on GPU", "each GPU holds 112 GB of"}) {
    const auto lines = wrap_caption(*f.font, 26, english, f.width(room));
    CHECK(lines.size() >= 2);
    for (const std::string& line : lines) CHECK(f.width(line) <= f.width(room));
    check_no_number_parted(lines);
    CHECK(join(lines, " ") == english);
  }
  // Chinese: "第 1 轮", "112 GB" and "2 张" stay whole at any width that holds them.
  const std::string zh = "第 1 轮结束后每张 GPU 112 GB，共 2 张";
  for (const char* room : {"0123456789ab", "0123456789abcd", "0123456789abcdef"}) {
    const auto lines = wrap_caption(*f.font, 26, zh, f.width(room));
    CHECK(lines.size() >= 2);
    for (const std::string& line : lines) {
      CAPTURE(line);
      CHECK(line.rfind("GB", 0) != 0);
      CHECK(line.rfind("1 轮", 0) != 0);
      CHECK(line.rfind("轮", 0) != 0);
      CHECK((line.rfind("张", 0) != 0 || line.rfind("张 GPU", 0) == 0));
    }
  }
  // A list keeps its breaks: the spaces after its commas bind nothing.
  const auto list = wrap_caption(*f.font, 26, "[1, 2, 3, 4, 5, 6, 7, 8]", f.width("[1, 2, 3,"));
  CHECK(list.size() >= 2);
}

TEST_CASE("a word longer than the line is cut rather than overflowing") {
  const DefaultFont f;
  const auto lines = wrap_caption(*f.font, 26, "AllReduceReduceScatterAllGather", f.width("AllReduce"));
  CHECK(lines.size() >= 3);
  CHECK(join(lines, "") == "AllReduceReduceScatterAllGather");
  for (const std::string& line : lines) CHECK(f.width(line) <= f.width("AllReduce"));
}

TEST_CASE("a million characters without a space, Latin or Chinese, wrap into lines that all fit and lose nothing") {
  const DefaultFont f;
  const float limit = f.width("every GPU sends its own block");
  std::string chinese;
  while (chinese.size() < 1'000'000) chinese += "每张把一个分片发给右边的邻居，";
  for (const std::string& caption : {std::string(1'000'000, 'x'), chinese}) {
    const auto lines = wrap_caption(*f.font, 26, caption, limit);
    CHECK(lines.size() > 1000);
    bool all_fit = true;
    for (const std::string& line : lines) all_fit = all_fit && f.width(line) <= limit;
    CHECK(all_fit);
    CHECK(join(lines, "") == caption);
  }
}

TEST_CASE("a caption longer than the lines allowed stops there and its last line ends in ...") {
  const DefaultFont f;
  std::string caption;
  while (caption.size() < 1'000'000) caption += "every GPU sends one chunk to the right ";
  const float limit = f.width("every GPU sends its own block");
  const auto lines = wrap_caption(*f.font, 26, caption, limit, 3);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "every GPU sends one chunk to");
  CHECK(lines[2].size() > 3);
  CHECK(lines[2].substr(lines[2].size() - 3) == "...");
  for (const std::string& line : lines) CHECK(f.width(line) <= limit);
  // Exactly as many lines as allowed, nothing left over: no "...".
  CHECK(wrap_caption(*f.font, 26, "One.\nTwo.", 1000, 2) == std::vector<std::string>{"One.", "Two."});
  CHECK(wrap_caption(*f.font, 26, "One.\nTwo.", 1000, 1) == std::vector<std::string>{"One...."});
}

TEST_CASE("caption type is about 3.6% of the frame height, in whole multiples of 13 pixels") {
  CHECK(caption_font_pixels(1080) == 39);
  CHECK(caption_font_pixels(720) == 26);
  CHECK(caption_font_pixels(360) == 13);
  CHECK(caption_font_pixels(100) == 13);
  CHECK(caption_font_pixels(2160) == 78);
}

TEST_CASE("the Memory tab's header for an audience keeps every number with its label at any width, en and zh") {
  const DefaultFont f;  // no CJK glyphs: each measures as the fallback glyph, which is enough here
  auto is_digit = [](char32_t c) { return c >= '0' && c <= '9'; };
  auto is_word = [](char32_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= 0x3040 && c <= 0x9FFF);
  };
  auto code_points = [](const std::string& text) {
    std::vector<char32_t> codes;
    for (std::size_t at = 0; at < text.size();) codes.push_back(ringviz::next_code_point(text, at));
    return codes;
  };
  auto without_spaces = [](const std::string& text) {
    std::string kept;
    for (char c : text)
      if (c != ' ') kept += c;
    return kept;
  };
  ringviz::IterationQuery query;
  query.micro_batch = 1;  // "micro-batch 1": the label and its number the header used to part
  for (ringviz::Language language : {ringviz::Language::en, ringviz::Language::zh}) {
    const std::string header = ringviz::gui::iteration_audience_summary(query, language);
    CAPTURE(header);
    REQUIRE(header.find(language == ringviz::Language::zh ? "微批次 1" : "micro-batch 1") != std::string::npos);
    // From a quarter of the sentence to all of it, a pixel step of a tenth of a glyph: every
    // place a line can end.
    const float whole = f.width(header);
    int wrapped = 0;
    for (float width = whole * 0.25f; width < whole; width += 1.3f) {
      const auto lines = wrap_caption(*f.font, 26, header, width);
      wrapped += lines.size() > 1 ? 1 : 0;
      CHECK(without_spaces(join(lines, "")) == without_spaces(header));
      for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        const std::vector<char32_t> ends = code_points(lines[i]), starts = code_points(lines[i + 1]);
        REQUIRE(!ends.empty());
        REQUIRE(!starts.empty());
        if ((is_word(ends.back()) && is_digit(starts.front())) || (is_digit(ends.back()) && is_word(starts.front()))) {
          CAPTURE(width);
          CAPTURE(lines[i]);
          CAPTURE(lines[i + 1]);
          FAIL_CHECK("a line ends at a label before its number, or a number before its unit");
        }
      }
    }
    CHECK(wrapped > 100);
  }
}
