#pragma once
#include <cstdint>

struct ImDrawData;

namespace ringviz::gui {

class GuiApp;

// A hash of everything that decides a frame's pixels: ImGui's vertices, indices and draw
// commands, and the state behind the cell renderer's callback (the timeline position and the
// session). Two frames with the same fingerprint have the same pixels, so a recording draws
// the second one no more.
std::uint64_t draw_fingerprint(GuiApp& app, const ImDrawData& draw);

}  // namespace ringviz::gui
