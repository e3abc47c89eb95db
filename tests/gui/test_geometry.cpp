// Ring and panel geometry: nothing overlaps, everything stays inside its area.
#include <doctest/doctest.h>

#include "app/gui/layout/panel_layout.h"
#include "app/gui/layout/ring_geometry.h"

using namespace ringviz::gui;

namespace {

bool inside(const Rect& inner, const Rect& outer) {
  return inner.x >= outer.x - 0.5f && inner.y >= outer.y - 0.5f && inner.right() <= outer.right() + 0.5f &&
         inner.bottom() <= outer.bottom() + 0.5f;
}

}  // namespace

TEST_CASE("GPU boxes never overlap and stay in the view, on the circle and in the grid") {
  const Rect view{300, 60, 880, 680};
  for (int ranks : {1, 2, 3, 4, 5, 8, 12, 16, 17, 64, 256}) {
    CAPTURE(ranks);
    const RingGeometry g = layout_ring(view, ranks, 13.0f);
    REQUIRE(g.boxes.size() == static_cast<std::size_t>(ranks));
    CHECK(g.grid == (ranks > kMaxCircleRanks));
    CHECK(g.arrows.size() == static_cast<std::size_t>(ranks >= 2 ? ranks : 0));
    for (int i = 0; i < ranks; ++i) {
      CHECK(inside(g.boxes[i].box, view));
      CHECK(inside(g.boxes[i].cells, g.boxes[i].box));
      for (int j = i + 1; j < ranks; ++j) CHECK_FALSE(g.boxes[i].box.overlaps(g.boxes[j].box));
    }
    CHECK(g.cell_columns * g.cell_rows >= ranks);
  }
}

TEST_CASE("cells are big enough for labels on small rings") {
  const RingGeometry g = layout_ring({0, 0, 880, 680}, 4, 13.0f);
  CHECK(g.cell_height >= 13.0f * 2.6f);
  CHECK(g.cell_width >= 60.0f);
}

TEST_CASE("a view too small for the smallest cells still gets one box and one arrow per GPU") {
  // Shorter than one box title, as with --ui-scale 4 in an 800x600 window, which used to crash.
  const RingGeometry g = layout_ring({0, 0, 200, 60}, 4, 52.0f);
  CHECK(g.boxes.size() == 4u);
  CHECK(g.arrows.size() == 4u);
}

TEST_CASE("arrow paths run from one box to the next") {
  const RingGeometry g = layout_ring({0, 0, 880, 680}, 4, 13.0f);
  for (int r = 0; r < 4; ++r) {
    const ArrowPath& a = g.arrows[r];
    REQUIRE(a.points.size() >= 2);
    const Rect& from = g.boxes[r].box;
    const Rect& to = g.boxes[(r + 1) % 4].box;
    CHECK((a.at(0.0f) - from.centre()).length() < (a.at(0.0f) - to.centre()).length());
    CHECK((a.at(1.0f) - to.centre()).length() < (a.at(1.0f) - from.centre()).length());
  }
}

TEST_CASE("panels tile the window without overlapping, at several sizes") {
  for (auto [w, h] : {std::pair{1600.0f, 900.0f}, {1100.0f, 720.0f}, {2560.0f, 1440.0f}}) {
    const PanelLayout p = layout_panels(w, h, 1.0f);
    const Rect all[] = {p.setup, p.caption, p.view, p.round_table, p.traffic, p.controls};
    const Rect window{0, 0, w, h};
    float area = 0;
    for (int i = 0; i < 6; ++i) {
      CHECK(inside(all[i], window));
      area += all[i].w * all[i].h;
      for (int j = i + 1; j < 6; ++j) CHECK_FALSE(all[i].overlaps(all[j]));
    }
    CHECK(area == doctest::Approx(w * h));
  }
}

TEST_CASE("the counter-clockwise ring runs from GPU r to r - 1, inside the clockwise one on the circle, and touches no box") {
  const Rect view{300, 60, 880, 680};
  for (int ranks : {3, 4, 8, 16, 17, 40}) {
    CAPTURE(ranks);
    const RingGeometry g = layout_ring(view, ranks, 13.0f);
    REQUIRE(g.back_arrows.size() == static_cast<std::size_t>(ranks));
    const auto distance = [](Vec2 a, Vec2 b) { return (a - b).length(); };
    for (int r = 0; r < ranks; ++r) {
      CAPTURE(r);
      const int left = (r + ranks - 1) % ranks;
      const ArrowPath& back = g.back_arrows[static_cast<std::size_t>(r)];
      REQUIRE(back.points.size() >= 2);
      const Rect& from = g.boxes[static_cast<std::size_t>(r)].box;
      const Rect& to = g.boxes[static_cast<std::size_t>(left)].box;
      // It leaves GPU r's box and ends at GPU r - 1's: nearer each than any other box is.
      CHECK(distance(back.points.front(), from.centre()) < distance(back.points.back(), from.centre()));
      CHECK(distance(back.points.back(), to.centre()) < distance(back.points.front(), to.centre()));
      for (const GpuBox& box : g.boxes)
        for (float t : {0.25f, 0.5f, 0.75f}) CHECK_FALSE(box.box.contains(back.at(t)));
      CHECK(ring_arrow(g, r, left) == &back);
      CHECK(ring_arrow(g, r, (r + 1) % ranks) == &g.arrows[static_cast<std::size_t>(r)]);
      // On the circle it bows toward the centre, the clockwise arrow of the same link away from it.
      if (!g.grid)
        CHECK(distance(back.at(0.5f), view.centre()) <
              distance(g.arrows[static_cast<std::size_t>(left)].at(0.5f), view.centre()));
    }
    if (ranks > 3) CHECK(ring_arrow(g, 0, 2) == nullptr);
  }
  // Two GPUs: the clockwise arrows already go both ways.
  CHECK(layout_ring(view, 2, 13.0f).back_arrows.empty());
}
