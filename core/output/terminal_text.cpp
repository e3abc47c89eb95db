#include "core/output/terminal_text.h"

#include <algorithm>
#include <vector>

namespace ringviz {

namespace {

std::string spaces_to(std::string_view text, std::size_t width, std::size_t at_least) {
  const std::size_t columns = display_width(text);
  return std::string(columns < width ? std::max(width - columns, at_least) : at_least, ' ');
}

// The pieces a line may break between: a run of non-space narrow characters is one piece, each
// wide character is a piece of its own. `space_before` says whether a space separated the piece
// from the one before it (a space is kept there when both land on one line).
struct Piece {
  std::string text;
  bool space_before = false;
};

std::vector<Piece> pieces_of(std::string_view text) {
  std::vector<Piece> pieces;
  bool space = false;
  bool open = false;  // the last piece is a narrow run that may grow
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t start = at;
    const char32_t point = next_code_point(text, at);
    const std::string_view bytes = text.substr(start, at - start);
    if (point == U' ' || point == U'\n' || point == U'\t') {
      space = !pieces.empty();
      open = false;
      continue;
    }
    const bool wide = display_width(bytes) == 2;
    if (wide || !open) {
      pieces.push_back({std::string(bytes), space});
    } else {
      pieces.back().text += bytes;
    }
    open = !wide;
    space = false;
  }
  return pieces;
}

}  // namespace

std::string pad_right(std::string_view text, std::size_t width) {
  return std::string(text) + spaces_to(text, width, 0);
}

std::string pad_left(std::string_view text, std::size_t width) {
  return spaces_to(text, width, 0) + std::string(text);
}

ColumnHeadLines commented_column_heads(std::span<const ColumnHead> columns) {
  ColumnHeadLines lines{"#", "#"};
  for (std::size_t c = 0; c < columns.size(); ++c) {
    // '#' takes one column of the first cell; the rest are two spaces apart, as the rows are.
    const std::size_t width = c == 0 && columns[c].width > 0 ? columns[c].width - 1 : columns[c].width;
    lines.names += (c == 0 ? "" : "  ") + pad_left(columns[c].name, width);
    lines.units += (c == 0 ? "" : "  ") + pad_left(columns[c].unit, width);
  }
  while (lines.units.size() > 1 && lines.units.back() == ' ') lines.units.pop_back();
  return lines;
}

std::string cell_right(std::string_view text, std::size_t width) {
  return spaces_to(text, width, 1) + std::string(text);
}

std::string cell_left(std::string_view text, std::size_t width) {
  return std::string(text) + spaces_to(text, width, 1);
}

std::string wrap(std::string_view text, std::size_t width) {
  std::string out;
  std::string line;
  std::size_t line_width = 0;
  for (const Piece& piece : pieces_of(text)) {
    const std::size_t gap = line.empty() ? 0 : (piece.space_before ? 1 : 0);
    const std::size_t piece_width = display_width(piece.text);
    if (!line.empty() && line_width + gap + piece_width > width) {
      out += line + "\n";
      line.clear();
      line_width = 0;
    }
    if (!line.empty() && piece.space_before) {
      line += ' ';
      ++line_width;
    }
    line += piece.text;
    line_width += piece_width;
  }
  return out + line + "\n";
}

}  // namespace ringviz
