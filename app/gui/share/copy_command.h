#pragma once
// The Copy command button (at the end of the setup panel) and its window: the `ringviz ...`
// command line that opens the view as it is now goes to the clipboard and is shown, selectable,
// for machines without a clipboard (a remote shell, a headless screenshot).
#include <string>

#include "app/gui/runtime/frame_extension.h"
#include "app/gui/share/view_command.h"

namespace ringviz::gui {

class ClassroomMode;

class CopyCommand : public FrameExtension {
 public:
  // `classroom` (may be null) says whether predict mode is on; it must outlive this.
  explicit CopyCommand(const ClassroomMode* classroom) : classroom_(classroom) {}

  // Opens the window on the first frame, as if the button had been pressed (--show-command).
  void open_at_start() { open_pending_ = true; }
  // The state the GUI shows now, as the command line reproduces it.
  ViewState state_of(GuiApp& app) const;
  // The command last copied ("" before the first time).
  const std::string& command() const { return command_; }

  void setup_panel_end(GuiApp& app) override;
  void after_panels(GuiApp& app, const PanelLayout& panels) override;

 private:
  void copy(GuiApp& app);

  const ClassroomMode* classroom_;
  std::string command_;
  bool open_ = false;
  bool open_pending_ = false;
};

}  // namespace ringviz::gui
