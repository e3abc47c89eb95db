#pragma once
#include <map>
#include <string>

#include "app/gui/layout/geometry.h"

// Where the clickable widgets of the last frame were, by name ("tab.ring", "record.button"),
// for the state file that input-driven tests read to know where to click
// (docs/architecture.md, "Tests driven by real input"). Off unless a host turns it on: a normal
// run pays for building each name and one branch, a few dozen short strings a frame.

namespace ringviz::gui {

void set_item_marks_enabled(bool on);
bool item_marks_enabled();
// Forgets the previous frame's marks; hosts call it before each frame.
void clear_item_marks();
// Records the last ImGui item's screen rectangle under `name`, if it is visible.
void mark_last_item(const std::string& name);
// Records a rectangle that is not an ImGui item (a GPU box, a cell).
void mark_rect(const std::string& name, const Rect& rect);
const std::map<std::string, Rect>& item_marks();

}  // namespace ringviz::gui
