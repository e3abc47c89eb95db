#pragma once
// Small drawing pieces the memory, training and compare views share: axis ticks, dashed
// lines, hatching and text placed by its centre. Plots are drawn with ImGui's draw list.
#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/render/colour.h"
#include "app/gui/render/theme.h"
#include "app/gui/layout/geometry.h"

namespace ringviz::gui {

// Opens the window of a view that fills `area` (pair with ImGui::End()), paints the view
// background under it, and returns the window's draw list.
ImDrawList* begin_view_window(const char* id, const Rect& area, const ViewColours& colours);

// A round tick spacing (1, 2 or 5 x 10^k) giving about `target` intervals from 0 to `max`.
double nice_step(double max, int target = 5);
// The smallest multiple of nice_step(max) at or above `max`, so the axis ends on a tick.
double nice_ceiling(double max, int target = 5);

void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, float thickness, float dash,
                 float gap);
// Diagonal lines across `r` (clipped to it): marks what is only there for a moment.
void hatch_rect(ImDrawList* dl, const Rect& r, ImU32 colour, float spacing, float thickness = 1.0f);
// `text` with its horizontal centre at x and its top at y.
void text_centred(ImDrawList* dl, float x, float y, ImU32 colour, const char* text);
// Black or white, whichever reads better on `under`.
ImU32 ink_on(Rgb under);
// A rectangle filled with `colour` and a label, as in a legend; returns the width it took.
float legend_swatch(ImDrawList* dl, ImVec2 at, float size, ImU32 colour, ImU32 ink, const char* label,
                    bool hatched = false, ImU32 hatch = 0);

// The width a labelled widget takes: its frame `field` wide, the inner spacing and the label
// as shown (without any "##id").
float labelled_width(float field, const char* label);

// How many rows widgets `widths` wide take in a ControlFlow `available` pixels wide.
int flow_rows(const std::vector<float>& widths, float available);

// Widgets laid out left to right that start a new row when the next one would pass `right`
// (screen x), so no control runs out of its view however narrow the window.
class ControlFlow {
 public:
  explicit ControlFlow(float right) : right_(right) {}
  // Call before each widget with the width it takes.
  void next(float width);

 private:
  float right_;
  bool first_ = true;
};

// A polyline through `points`, skipping NaNs (gaps in a series).
void polyline(ImDrawList* dl, const std::vector<ImVec2>& points, ImU32 colour, float thickness);

}  // namespace ringviz::gui
