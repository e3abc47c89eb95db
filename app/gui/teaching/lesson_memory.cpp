#include "app/gui/teaching/lesson_memory.h"

namespace ringviz::gui {

void show_lesson_iteration(GuiApp& app, const LessonScene& scene, bool& showing) {
  const bool wanted = scene.memory && scene.memory->iteration;
  MemoryView& memory = app.views().memory();
  if (wanted) {
    memory.set_mode(MemoryMode::iteration);
    memory.iteration().set_query(*scene.memory->iteration);  // shown at its peak
    app.set_centre_view(CentreView::memory);
  } else if (showing) {
    memory.set_mode(MemoryMode::model_states);
    app.set_centre_view(CentreView::ring);
  }
  showing = wanted;
}

}  // namespace ringviz::gui
