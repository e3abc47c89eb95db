#pragma once
#include <nlohmann/json.hpp>

#include "app/gui/layout/geometry.h"
#include "app/gui/layout/panel_layout.h"
#include "app/gui/render/colour.h"

// The JSON pieces that the layout dump (--dump-layout) and the state file (--state-file) share,
// so that both describe a rectangle and the panels the same way.

namespace ringviz::gui {

nlohmann::json rect_json(const Rect& r);  // {"x","y","w","h"}
nlohmann::json rgb_json(Rgb c);           // [r, g, b]
nlohmann::json panels_json(const PanelLayout& panels);

}  // namespace ringviz::gui
