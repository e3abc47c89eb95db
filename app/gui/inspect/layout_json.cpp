#include "app/gui/inspect/layout_json.h"

namespace ringviz::gui {

nlohmann::json rect_json(const Rect& r) { return {{"x", r.x}, {"y", r.y}, {"w", r.w}, {"h", r.h}}; }

nlohmann::json rgb_json(Rgb c) { return nlohmann::json::array({c.r, c.g, c.b}); }

nlohmann::json panels_json(const PanelLayout& panels) {
  return {{"setup", rect_json(panels.setup)},
          {"caption", rect_json(panels.caption)},
          {"view", rect_json(panels.view)},
          {"round_table", rect_json(panels.round_table)},
          {"traffic", rect_json(panels.traffic)},
          {"controls", rect_json(panels.controls)},
          {"devices", rect_json(panels.devices)},
          {"timeline", rect_json(panels.timeline)}};
}

}  // namespace ringviz::gui
