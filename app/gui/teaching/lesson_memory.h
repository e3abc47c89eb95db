#pragma once
// A lesson scene whose memory block names a transformer (docs/lessons.md, "Memory") opens the
// Memory tab on that transformer's whole iteration; the next scene without one gives the centre
// back to the ring. Other scenes leave the centre view alone (docs/architecture.md, "The GUI:
// frame host, panels and views").
#include "app/gui/runtime/gui_app.h"
#include "core/teaching/lesson.h"

namespace ringviz::gui {

// Called when a scene starts. `showing` is true while a previous scene has the Memory tab in
// the whole-iteration mode; it is updated.
void show_lesson_iteration(GuiApp& app, const LessonScene& scene, bool& showing);

}  // namespace ringviz::gui
