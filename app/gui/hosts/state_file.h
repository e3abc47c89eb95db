#pragma once
#include <string>

#include "app/gui/runtime/gui_app.h"
#include "app/gui/teaching/lesson_player_host.h"
#include "app/gui/teaching/presentation_mode.h"

// --state-file PATH (for tests): after every frame of the interactive window, what a user
// would see and where they would click, as JSON (format ringviz.state/1), rewritten atomically
// so that a reader never sees half a file. tests/gui/input_events.py drives the real window
// with xdotool and checks what each key and click did through it
// (docs/architecture.md, "Tests driven by real input").

namespace ringviz::gui {

// What the state file reads besides the GuiApp: the window and the interactive extensions.
struct StateSources {
  const ClassroomMode* classroom = nullptr;
  const InteractiveExtras* extras = nullptr;
  bool fullscreen = false;
  // The user's input events (keys, mouse) the window has taken so far: a test waits for its own
  // event to be counted before it lets go of a key, so that some frame saw the key down.
  unsigned long long input_events = 0;
  // How the frame was drawn and shown (KeptFrame's path: "whole", "target", "back_buffer") and
  // how many of its pixels were redrawn: a test can see the window keep its damage.
  std::string frame_path;
  long long pixels_redrawn = 0;
};

class StateFileWriter {
 public:
  explicit StateFileWriter(std::string path);  // empty: writes nothing, marks stay off
  bool enabled() const { return !path_.empty(); }
  // Before a frame: forgets the last frame's widget marks.
  void before_frame();
  // After a frame of `width` x `height`: writes the state. A failed write becomes a notice
  // once (a test will time out on the missing state and say so).
  void after_frame(GuiApp& app, const StateSources& sources, int width, int height);

 private:
  std::string path_;
  long long frame_ = 0;
  bool reported_ = false;
};

}  // namespace ringviz::gui
