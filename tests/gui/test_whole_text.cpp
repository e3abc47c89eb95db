// The rules that keep side-panel tables and scrolling panels whole: which columns a table
// keeps, how tall a scrolling table is, where a scrolled panel's clip ends.
#include <doctest/doctest.h>

#include "app/gui/text/table_fit.h"
#include "app/gui/panels/whole_lines.h"

using namespace ringviz::gui;

TEST_CASE("a table keeps every column when they fit") {
  const std::vector<ColumnNeed> columns{{40, 0}, {100, 3}, {60, 0}, {30, 0}, {50, 2}, {40, 1}};
  // 320 of content plus 6 columns x 9 of padding = 374.
  CHECK(columns_that_fit(columns, 9, 374) == std::vector<bool>{true, true, true, true, true, true});
}

TEST_CASE("columns give way highest rank first until the rest fit") {
  const std::vector<ColumnNeed> columns{{40, 0}, {100, 3}, {60, 0}, {30, 0}, {50, 2}, {40, 1}};
  CHECK(columns_that_fit(columns, 9, 373) == std::vector<bool>{true, false, true, true, true, true});
  // Without the 100-wide column: 220 + 5 x 9 = 265.
  CHECK(columns_that_fit(columns, 9, 265) == std::vector<bool>{true, false, true, true, true, true});
  CHECK(columns_that_fit(columns, 9, 264) == std::vector<bool>{true, false, true, true, false, true});
  CHECK(columns_that_fit(columns, 9, 200) == std::vector<bool>{true, false, true, true, false, false});
}

TEST_CASE("columns of rank 0 stay even when they alone are too wide") {
  const std::vector<ColumnNeed> columns{{400, 0}, {100, 1}};
  CHECK(columns_that_fit(columns, 9, 100) == std::vector<bool>{true, false});
}

TEST_CASE("columns of one rank leave together") {
  const std::vector<ColumnNeed> columns{{50, 0}, {50, 1}, {50, 1}};
  CHECK(columns_that_fit(columns, 0, 120) == std::vector<bool>{true, false, false});
}

TEST_CASE("a scrolling table is its header plus whole rows") {
  CHECK(whole_rows_height(100, 20, 17) == doctest::Approx(20 + 4 * 17));
  CHECK(whole_rows_height(88, 20, 17) == doctest::Approx(20 + 4 * 17));
  CHECK(whole_rows_height(87, 20, 17) == doctest::Approx(20 + 3 * 17));
  // Never less than one row, even where there is no room for it.
  CHECK(whole_rows_height(10, 20, 17) == doctest::Approx(20 + 17));
}

TEST_CASE("a scrolled panel's clip ends above the first line that does not fit whole") {
  // Lines end 4 px above the next line's top: boundaries 30, 60, 90, 120 (content coordinates).
  const std::vector<float> next_tops{30, 60, 90, 120};
  // Unscrolled, visible to 100: the line ending at 86 fits, the one ending at 116 does not.
  CHECK(whole_lines_bottom(next_tops, 4, 0, 100) == doctest::Approx(90));
  // Scrolled by 20, the line ending at 116 - 20 = 96 fits; nothing is left below.
  CHECK(whole_lines_bottom(next_tops, 4, 20, 100) == doctest::Approx(100));
  // A line that ends exactly at the edge fits; the next one's top is past it: the clip is the edge.
  CHECK(whole_lines_bottom(next_tops, 4, 0, 86) == doctest::Approx(86));
  // One pixel less and that line does not fit either.
  CHECK(whole_lines_bottom(next_tops, 4, 0, 85) == doctest::Approx(60));
}

TEST_CASE("a panel whose lines all fit, or that has none marked yet, is not clipped") {
  CHECK(whole_lines_bottom({30, 60}, 4, 0, 100) == doctest::Approx(100));
  CHECK(whole_lines_bottom({}, 4, 0, 100) == doctest::Approx(100));
}
