#pragma once
// A lesson scene names the views it is about (docs/lessons.md, "Views"); the first of them that
// is a centre view is what the centre shows, in the window, in presentation mode and in
// `ringviz record`. Entering a scene also resets what the scene's blocks control: the memory
// view's model and step, the whole-iteration transformer, the training view's runs.
#include "app/gui/runtime/gui_app.h"
#include "app/gui/views/centre_view.h"
#include "core/teaching/lesson.h"

namespace ringviz::gui {

// The centre view of a scene: its first view that the centre can show. The round table, the
// traffic panel, the timeline and a lesson's "compare" (the ring's inputs beside its results)
// belong to the ring, so they stand for the ring.
CentreView scene_centre_view(const LessonScene& scene);

// Called when a scene starts: switches the centre view and applies the scene's memory and
// training blocks.
void show_lesson_scene(GuiApp& app, const LessonScene& scene);
// Called every frame of a scene: the training view shows the lesson clock's iterations.
void follow_lesson_frame(GuiApp& app, const LessonFrame& frame);

}  // namespace ringviz::gui
