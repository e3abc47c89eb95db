#pragma once
// A link's fragment read as the start of a view (docs/architecture.md, "The browser build"):
// its pairs (view_link.h) parsed by the GUI's own command-line flags, so a link accepts what
// `ringviz` accepts and is refused with the same words. Nothing here needs the browser: the
// native test build compiles it too (tests/web/test_link_start.cpp).
#include <optional>
#include <string>

#include "app/gui/hosts/hosts.h"
#include "core/model/text.h"
#include "core/teaching/lesson.h"

namespace ringviz::web {

// The flags a fragment stands for, parsed by the GUI's own command-line flags, and the start
// they ask for.
struct LinkStart {
  gui::GuiStart start;
  std::string round;  // --round, checked once the timeline's length is known
  Language language = Language::en;
  bool language_given = false;
  bool present = false;
  bool predict = false;
  std::optional<Lesson> lesson;  // lesson=NAME: a shipped lesson, paused at the start of its scene
  double lesson_seconds = 0;     // scene=K's start
};

// Throws InputError: a key a link does not hold, a refused flag or value, a file that will not
// open, a lesson that is not shipped (found where find_lesson_folder looks), a scene out of range.
LinkStart parse_link(const std::string& fragment);

}  // namespace ringviz::web
