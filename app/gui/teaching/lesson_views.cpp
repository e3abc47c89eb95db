#include "app/gui/teaching/lesson_views.h"

namespace ringviz::gui {

CentreView scene_centre_view(const LessonScene& scene) {
  for (View view : scene.views) {
    switch (view) {
      case View::memory: return CentreView::memory;
      case View::training: return CentreView::training;
      case View::job: return CentreView::job;
      case View::ring:
      case View::compare:  // a lesson's "compare" is the ring's before and after, not the Compare tab
      case View::round_table:
      case View::traffic:
      case View::timeline: return CentreView::ring;
    }
  }
  return CentreView::ring;
}

void show_lesson_scene(GuiApp& app, const LessonScene& scene) {
  MemoryView& memory = app.views().memory();
  if (scene.memory && scene.memory->iteration) {
    memory.set_mode(MemoryMode::iteration);
    memory.iteration().set_query(*scene.memory->iteration);  // shown at its peak
  } else if (scene.memory) {
    memory.set_mode(MemoryMode::model_states);
    memory.set_model(scene.memory->params, scene.config.ranks, scene.memory->strategies, scene.memory->convention,
                     scene.config.order);
    memory.rest();  // the model states, as `ringviz memory` prints them, until the ring moves
  }
  if (scene.training) {
    TrainingView& training = app.views().training();
    training.configure(scene.config.ranks, scene.config.dtype, scene.config.order, scene.training->iterations,
                       scene.training->strategies, scene.training->seed);
  }
  app.set_centre_view(scene_centre_view(scene));
}

void follow_lesson_frame(GuiApp& app, const LessonFrame& frame) {
  if (frame.scene == nullptr) return;
  if (frame.scene->training) app.views().training().set_shown_iterations(frame.iteration + frame.iteration_progress);
  // The memory bars follow the lesson's ring: while its rounds run they show the moment of the
  // iteration that runs this collective; before the first round, the model states at rest.
  if (frame.scene->memory && !frame.scene->memory->iteration) {
    MemoryView& memory = app.views().memory();
    const double rounds = frame.round + frame.round_progress;
    if (rounds <= 0 || !memory.follow_ring(frame.scene->config.op, rounds)) memory.rest();
  }
}

}  // namespace ringviz::gui
