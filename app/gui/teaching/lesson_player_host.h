#pragma once
#include "app/gui/runtime/gui_app.h"
#include "app/gui/teaching/lesson_player.h"
#include "app/gui/record/recorder_button.h"

namespace ringviz::gui {

// The lesson player (picker, scene buttons, captions) and the record button, as the
// interactive GUI carries them. Declare it next to the GuiApp and attach() once.
struct InteractiveExtras {
  LessonPlayer lessons;
  RecorderButton recorder;
  // Adds both to `app`, the recorder first so that its fixed time step reaches the lesson
  // clock too, and lists the shipped lessons for the picker.
  void attach(GuiApp& app);
};

}  // namespace ringviz::gui
