#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "core/model/text.h"

// Text laid out for a terminal, where a Chinese character takes two columns and Ψ or µ one, so
// that the command-line tables line up in both languages. Widths are display columns
// (display_width in core/model/text.h), never bytes.
namespace ringviz {

// `english` or `chinese`, whichever `language` asks for: the command-line tables keep each
// phrase's two wordings side by side, where they are printed.
inline std::string en_zh(Language language, std::string_view english, std::string_view chinese) {
  return std::string(language == Language::zh ? chinese : english);
}

// `text` followed (pad_right) or preceded (pad_left) by spaces up to `width` columns; text as
// wide or wider is returned as it is, as std::setw does.
std::string pad_right(std::string_view text, std::size_t width);
std::string pad_left(std::string_view text, std::size_t width);

// A cell that always keeps at least one space on its padded side, so that text wider than its
// column still stays apart from its neighbour.
std::string cell_right(std::string_view text, std::size_t width);
std::string cell_left(std::string_view text, std::size_t width);

// One column of a benchmark table printed in nccl-tests' layout: its head, the unit under it
// ("" for none), and the width of the column in the rows ("%12lld" is 12).
struct ColumnHead {
  std::string_view name;
  std::string_view unit;
  std::size_t width = 0;
};
// The two comment lines over such a table: names, then units, each right-aligned over its column
// by display width, "  " between columns, '#' in the first column's first place. The units' line
// ends at its last unit; the names' line is padded to the last column (a caller may add a head).
struct ColumnHeadLines {
  std::string names;
  std::string units;
};
ColumnHeadLines commented_column_heads(std::span<const ColumnHead> columns);

// `text` broken into lines of at most `width` columns, each ending in '\n'. Breaks fall at
// spaces, and also between two wide characters (Chinese needs no spaces between words); a
// word wider than the line is kept whole on its own line.
std::string wrap(std::string_view text, std::size_t width);

}  // namespace ringviz
