#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace ringviz::gui {

class GuiApp;

// Writes the last frame's layout as JSON (schema ringviz.layout/1): the window, the panels,
// the colours in use, and for every GPU its box and for every slot its cell rectangle, centre
// and provenance (and the label drawn on it), the centre view shown, and every piece of text
// drawn with its rectangle (`texts`, from the draw data: call between ImGui::Render() and the
// next NewFrame()). Tests read it to know where to look in a screenshot and what to expect.
// `lesson` is null here: a host that plays a lesson (the recorder) sets it.
// The document itself, for a host that adds its own parts (the recorder: the lesson, the stage)
// before writing it once.
nlohmann::json layout_json(GuiApp& app, float width, float height);
bool write_layout_json(GuiApp& app, float width, float height, const std::string& path, std::string& error);

}  // namespace ringviz::gui
