#pragma once
// GPU boxes grouped by host during a capture's replay: an outline in the host's colour around
// each box and a legend of host names in the ring view's corner.
#include "app/gui/layout/ring_geometry.h"
#include "app/gui/render/theme.h"
#include "core/trace/trace_read.h"

namespace ringviz::gui {

// Appends to the ring view's window ("##ring"), which must already have been drawn this frame.
void draw_host_overlay(const RingGeometry& geometry, const CaptureRecord& capture, const Rect& view, float ui_scale,
                       ThemeKind theme);

}  // namespace ringviz::gui
