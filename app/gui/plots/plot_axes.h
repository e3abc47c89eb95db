#pragma once
// Axis labels of the training and compare plots, laid out from their measured sizes: as many
// as fit without touching (every k-th tick labelled), in gutters beside and below the plot that
// nothing else uses, so a y label never meets an x label at the corner.
#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/layout/geometry.h"
#include "app/gui/plots/view_text.h"

namespace ringviz::gui {

// The smallest k such that labelling every k-th of ticks `spacing` pixels apart leaves at
// least `needed` pixels from one label to the next (1 when they fit already).
int label_stride(float spacing, float needed);

// A linear axis from 0: the top value (a multiple of the step at or above `max`) and the
// step between grid lines, with as many steps as `length` pixels hold at `needed` pixels each
// (at least one), and no more than `most` (a tall plot needs no finer grid to be read).
struct LinearAxis {
  double top = 1;
  double step = 1;
};
LinearAxis linear_axis(double max, float length, float needed, int most = 8);

struct AxisLabel {
  float at = 0;  // pixels along the axis (y for the y axis, x for the x axis)
  std::string text;
};

// The widest of `labels` (the y gutter's width).
float widest_label(const std::vector<AxisLabel>& labels);

// Right-aligned `gap` left of the plot, each centred on its tick (so the end ones reach half a
// line above and below the plot: leave that room above it); one that would touch a text
// already on `board` is left out.
void draw_y_labels(ImDrawList* dl, TextBoard& board, const Rect& plot, float gap, const std::vector<AxisLabel>& labels,
                   ImU32 colour);
// In the row whose top is `y`, each centred under its tick but kept between the plot's left
// and right edges; one that would touch a text already on `board` is left out.
void draw_x_labels(ImDrawList* dl, TextBoard& board, const Rect& plot, float y, const std::vector<AxisLabel>& labels,
                   ImU32 colour);

}  // namespace ringviz::gui
