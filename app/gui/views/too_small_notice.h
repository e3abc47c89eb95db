#pragma once
// What a window or a view too small to draw its content shows instead: one centred, wrapped
// line saying so and what to do (docs/architecture.md, "The GUI: frame host, panels and views").
#include <imgui.h>

#include "app/gui/layout/geometry.h"
#include "app/gui/layout/panel_layout.h"
#include "core/model/text.h"

namespace ringviz::gui {

// `text` wrapped to `area`'s width and centred in it, clipped to it, in the style's text colour.
void draw_centred_notice(ImDrawList* draw_list, const Rect& area, const char* text);

// The whole window of `width` x `height` is below the smallest usable size
// (window_too_small): only the notice naming that size is drawn.
void draw_window_too_small(float width, float height, LeastWindow least, Language language);

}  // namespace ringviz::gui
