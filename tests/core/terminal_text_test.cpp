// Padding and wrapping by terminal columns: a Chinese character is two columns, Ψ and µ one,
// and English text pads exactly as std::setw would.
#include <doctest/doctest.h>

#include <iomanip>
#include <sstream>

#include "core/output/terminal_text.h"

using namespace ringviz;

TEST_CASE("padding counts columns, not bytes") {
  CHECK(pad_right("GPU", 6) == "GPU   ");
  CHECK(pad_left("GPU", 6) == "   GPU");
  CHECK(pad_right("参数", 6) == "参数  ");   // 6 bytes, 4 columns
  CHECK(pad_left("总计", 7) == "   总计");
  CHECK(pad_right("Ψ/N", 5) == "Ψ/N  ");
  CHECK(pad_left("1.5 µs", 8) == "  1.5 µs");
  CHECK(pad_right("优化器状态", 4) == "优化器状态");  // wider than the column: as setw, no cut
  CHECK(cell_right("优化器状态", 4) == " 优化器状态");
  CHECK(cell_left("ab", 2) == "ab ");
  CHECK(cell_left("a", 3) == "a  ");
}

TEST_CASE("English pads byte for byte as std::setw") {
  for (const char* text : {"", "params", "optimizer states", "x"})
    for (int width : {0, 3, 8, 20}) {
      std::ostringstream left, right;
      left << std::left << std::setw(width) << text;
      right << std::right << std::setw(width) << text;
      CHECK(pad_right(text, static_cast<std::size_t>(width)) == left.str());
      CHECK(pad_left(text, static_cast<std::size_t>(width)) == right.str());
    }
}

TEST_CASE("wrapping keeps every line within its columns in both languages") {
  CHECK(wrap("one two three four", 9) == "one two\nthree\nfour\n");
  CHECK(wrap("a  b\nc", 80) == "a b c\n");
  CHECK(wrap("averyveryverylongword x", 5) == "averyveryverylongword\nx\n");
  // Chinese breaks between characters; mixed text keeps the ASCII word whole.
  const std::string wrapped = wrap("参数和梯度为 16 位浮点数（各 2 字节），优化器保留 fp32 主副本。", 12);
  std::istringstream lines(wrapped);
  std::string line;
  std::string joined;
  while (std::getline(lines, line)) {
    CHECK(display_width(line) <= 12);
    joined += line;
  }
  CHECK(joined.find("fp32") != std::string::npos);
  CHECK(wrapped.back() == '\n');
  CHECK(wrap("", 10) == "\n");
}

TEST_CASE("en_zh picks the wording of the language") {
  CHECK(en_zh(Language::en, "total", "总计") == "total");
  CHECK(en_zh(Language::zh, "total", "总计") == "总计");
}

TEST_CASE("commented column heads sit right-aligned over their columns, '#' in the first column's place") {
  static constexpr ColumnHead kHeads[] = {{"大小", "(B)", 12}, {"类型", "", 6}, {"时间", "(us)", 10}};
  const ColumnHeadLines lines = commented_column_heads(kHeads);
  // A row of these columns: "%12lld  %6s  %10.1f".
  const std::string row = "        1024     f32         1.5";
  CHECK(lines.names == "#       大小    类型        时间");
  CHECK(lines.units == "#        (B)                (us)");
  CHECK(display_width(lines.names) == row.size());
  CHECK(lines.units.size() == row.size());
  // A table whose last unit is empty ends its units' line at the last unit there is.
  static constexpr ColumnHead kLast[] = {{"size", "(B)", 12}, {"type", "", 6}};
  CHECK(commented_column_heads(kLast).units == "#        (B)");
}
