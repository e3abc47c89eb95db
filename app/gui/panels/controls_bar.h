#pragma once
// The controls along the bottom: transport buttons, loop and speed, the help button, the
// backend and the latest notice, and the timeline with one marker per round coloured by phase.
#include <string>
#include <vector>

#include "app/gui/layout/geometry.h"
#include "app/gui/runtime/frame_context.h"
#include "app/gui/runtime/playback.h"
#include "app/gui/runtime/preferences.h"
#include "app/gui/runtime/session_model.h"

namespace ringviz::gui {

class ControlsBar {
 public:
  // Drives `playback`; keeps `preferences`' speed and loop in step with it and toggles its
  // help window. The last of `notices` (else the backend's own notice) is shown in the status.
  void draw(const Rect& area, const SessionModel& model, Playback& playback, Preferences& preferences,
            const std::vector<std::string>& notices, const FrameContext& frame);
};

}  // namespace ringviz::gui
