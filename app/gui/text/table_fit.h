#pragma once
#include <vector>

// Tables in the side panels are drawn whole: a row or a column cut at a panel edge reads as
// cut-off text (docs/architecture.md, "Text in the layout dump"). These rules decide which
// columns a table keeps and how tall its scrolling area is; pure arithmetic, tested without GL.

namespace ringviz::gui {

// One column as a table would draw it: its content width (the widest of its header and its
// cells) and when it gives way. `drop_rank` 0 keeps the column always; otherwise columns leave
// highest rank first until the rest fit.
struct ColumnNeed {
  float width = 0;
  int drop_rank = 0;
};

// Which columns to draw in `available` pixels, when each drawn column also costs `per_column`
// (cell padding and border). Columns of rank 0 are always kept, even if they alone overflow.
std::vector<bool> columns_that_fit(const std::vector<ColumnNeed>& columns, float per_column, float available);

// The height of a scrolling table that shows only whole rows: its frozen header plus as many
// rows as fit in `available`, at least one. Scrolled by whole rows (snap_scroll_to_rows), its
// body never shows part of a row.
float whole_rows_height(float available, float header, float row);

// Inside a scrolling table: a scroll position between rows (the mouse wheel moves by pixels)
// moves to the nearest row at the next frame.
void snap_scroll_to_rows(float row);
// The same across: a horizontally scrolling table moves by whole columns of `pitch` pixels.
void snap_scroll_x_to_columns(float pitch);

}  // namespace ringviz::gui
