#pragma once
// The controls along the bottom: transport buttons, loop and speed, the help button, the
// backend and the latest notice, and the timeline with one marker per round coloured by phase.
#include <string>
#include <vector>

#include "app/gui/layout/geometry.h"
#include "app/gui/state/frame_context.h"
#include "app/gui/state/playback.h"
#include "app/gui/state/preferences.h"
#include "app/gui/state/session_model.h"

namespace ringviz::gui {

// The backend status as last drawn: its words and where (empty text: no room for it).
struct StatusItem {
  std::string text;
  Rect rect;
};

class ControlsBar {
 public:
  // Drives `playback`; keeps `preferences`' speed and loop in step with it and toggles its
  // help window. The backend is named in a few words (the CPU fallback's reason is the
  // tooltip), except in presentation mode; the last of `notices` follows where it fits whole.
  // `spans`, when given, are the timeline's steps and their colours (the memory view's beats)
  // instead of the session's rounds.
  void draw(const Rect& area, const SessionModel& model, Playback& playback, Preferences& preferences,
            const std::vector<std::string>& notices, const FrameContext& frame,
            const std::vector<Rgb>* spans = nullptr);
  const StatusItem& status() const { return status_; }
  // The width the bar needs for what it never drops (Reset, Back, Play, Step, End) in the
  // current font; Loop, Speed and Help follow only where they fit whole.
  static float least_width(Language language);

 private:
  StatusItem status_;
};

}  // namespace ringviz::gui
