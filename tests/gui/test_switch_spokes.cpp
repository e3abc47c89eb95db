// A schedule through a reducing NVSwitch (nvls) has its switch in the middle of the ring, and the
// spokes between the GPUs and the switch, and the pipelined view's markers riding them, keep off
// every other GPU's box and title: at the window sizes people use, normal and in presentation
// mode, for 2 to 16 GPUs. No GL: the same geometry the ring view draws.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/layout/panel_layout.h"
#include "app/gui/layout/presentation.h"
#include "app/gui/layout/ring_geometry.h"
#include "app/gui/layout/switch_geometry.h"
#include "app/gui/pipeline/pipeline_markers.h"
#include "core/algorithms/registry.h"
#include "core/schedule/schedule.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;
using namespace ringviz::gui;

namespace {

// Whether the straight segment a-b enters `box`, sampled every half pixel or finer.
bool segment_enters(Vec2 a, Vec2 b, const Rect& box) {
  const int samples = std::max(2, static_cast<int>((b - a).length() * 2.0f));
  for (int i = 0; i <= samples; ++i)
    if (box.contains(a + (b - a) * (static_cast<float>(i) / static_cast<float>(samples)))) return true;
  return false;
}

struct Window {
  float width, height, ui_scale;
  bool presentation;
};

// The ring view's areas in a window: the view panel less its margin, and the same less the
// pipelined view's strip on top (a caption of two to four lines and the channel selector).
std::vector<Rect> ring_areas(const Window& window, float line) {
  const PanelLayout panels = window.presentation
                                 ? layout_presentation_panels(window.width, window.height, window.ui_scale)
                                 : layout_panels(window.width, window.height, window.ui_scale);
  const Rect area = panels.view.inset(std::round(line * 0.5f));
  std::vector<Rect> areas;
  for (float strip_lines : {0.0f, 2.5f, 4.0f, 6.0f})
    areas.push_back({area.x, area.y + strip_lines * line, area.w, area.h - strip_lines * line});
  return areas;
}

}  // namespace

TEST_CASE("every ring through the NVSwitch has the switch, and its spokes and their markers cross no other GPU's box or title, 2 to 16 GPUs") {
  const Window windows[] = {
      {1280, 720, 1.0f, false},  {1920, 1080, 1.0f, false}, {3840, 2160, 1.0f, false}, {3840, 2160, 2.0f, false},
      {1280, 720, 1.5f, true},   {1280, 720, 2.0f, true},   {1280, 720, 2.5f, true},   {1280, 720, 3.0f, true},
      {1920, 1080, 1.5f, true},  {1920, 1080, 2.0f, true},  {1920, 1080, 2.5f, true},  {1920, 1080, 3.0f, true},
      {3840, 2160, 1.5f, true},  {3840, 2160, 2.0f, true},  {3840, 2160, 3.0f, true},  {3840, 2160, 4.0f, true},
  };
  int switches_checked = 0, too_small = 0, without_room = 0;
  std::set<std::string> crossings;  // one line per (window, area, N, GPU, other GPU, what)
  for (const Window& window : windows) {
    const float line = std::round(13.0f * window.ui_scale);  // the font's line height at this scale
    const float marker = std::round(line * 1.3f);            // as the pipelined view sizes its markers
    for (const Rect& area : ring_areas(window, line)) {
      for (int n = 2; n <= 16; ++n) {
        std::ostringstream where;
        where << window.width << "x" << window.height << (window.presentation ? " presenting" : " normal") << " at "
              << window.ui_scale << "x, view " << area.w << "x" << area.h << ", " << n << " GPUs: ";
        const RingWithSwitch laid_out = layout_ring_with_switch(area, n, line);
        const RingGeometry& ring = laid_out.ring;
        const SwitchGeometry& in_switch = laid_out.in_switch;
        // A view too small for the GPUs at all shows a notice instead of the ring.
        if (!ring.fits) {
          ++too_small;
          continue;
        }
        // Without the switch the view falls back to the ring's arrows, and the markers of a
        // transfer between two GPUs across the middle cover the boxes on their way. Only a view
        // too short for two rows of GPU boxes around the smallest switch (under 9 lines: a
        // title strip and padding are 2.4 lines a box, the switch and its spokes' heads 4.7),
        // whose boxes zig-zag, or one where even the plain ring's cells are specks (under a
        // quarter of a line), has no room to give it.
        if (!in_switch.fits) {
          const bool room_for_a_switch = area.h >= 9.0f * line && layout_ring(area, n, line).cell_height >= 0.25f * line;
          if (room_for_a_switch) crossings.insert(where.str() + "no switch");
          else ++without_room;
          continue;
        }
        ++switches_checked;
        REQUIRE(in_switch.up.size() == static_cast<std::size_t>(n));
        REQUIRE(in_switch.down.size() == static_cast<std::size_t>(n));
        for (int gpu = 0; gpu < n; ++gpu) {
          for (const ArrowPath* spoke : {&in_switch.up[static_cast<std::size_t>(gpu)], &in_switch.down[static_cast<std::size_t>(gpu)]}) {
            REQUIRE(spoke->points.size() >= 2u);
            for (int other = 0; other < n; ++other) {
              if (other == gpu) continue;
              const GpuBox& box = ring.boxes[static_cast<std::size_t>(other)];
              for (std::size_t i = 0; i + 1 < spoke->points.size(); ++i)
                if (segment_enters(spoke->points[i], spoke->points[i + 1], box.box) ||
                    segment_enters(spoke->points[i], spoke->points[i + 1], box.title))
                  crossings.insert(where.str() + "GPU " + std::to_string(gpu) + "'s spoke crosses GPU " +
                                   std::to_string(other) + "'s box");
            }
          }
        }
        // Every wave's markers (four slices, two channels in lanes), leaving, mid-way and
        // arriving: none covers a GPU's box or title other than the one its spoke serves.
        const Schedule schedule = make_schedule(
            ConfigBuilder().algorithm(Algorithm::nvls).op(Op::allreduce).ranks(n).count(64 * n).slices(4).channels(2));
        REQUIRE(schedule.through_switch);
        for (int wave = 1; wave <= schedule.round_count(); ++wave)
          for (float travel : {0.0f, 0.5f, 1.0f})
            for (const PipelineMarker& placed : place_markers(ring, schedule, wave, kAllChannels, travel, marker, false, &in_switch)) {
              const int served = placed.kind == TransferKind::reduce ? placed.src : placed.dst;
              for (int other = 0; other < n; ++other)
                if (other != served && placed.box.overlaps(ring.boxes[static_cast<std::size_t>(other)].box))
                  crossings.insert(where.str() + "a marker on GPU " + std::to_string(served) + "'s spoke covers GPU " +
                                   std::to_string(other) + "'s box");
            }
      }
    }
  }
  std::string listed;
  for (const std::string& crossing : crossings) listed += crossing + "\n";
  INFO(listed);
  CHECK(crossings.empty());
  // The sweep is not empty: nearly every ring that fits its view has its switch (a notice
  // stands in for the ring only at the largest text with the tallest strips).
  CHECK(switches_checked > 780);
  CHECK(without_room * 40 < switches_checked);
  CHECK(too_small * 5 < switches_checked);
}
