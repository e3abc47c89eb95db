#pragma once
// GPU boxes grouped by host during a capture's replay: an outline in the host's colour around
// each box (the timeline's header names the hosts in their colours).
#include "app/gui/layout/ring_geometry.h"
#include "core/trace/trace_read.h"

namespace ringviz::gui {

// Appends to the ring view's window ("##ring"), which must already have been drawn this frame.
void draw_host_overlay(const RingGeometry& geometry, const CaptureRecord& capture, const Rect& view, float ui_scale);

}  // namespace ringviz::gui
