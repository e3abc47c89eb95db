#pragma once
// The browser's "Copy link" (beside the desktop's Copy command) and the page's history: the
// link of the view on screen (view_link.h) goes to the clipboard when asked, and every change
// the view settles on (another operation, view, language, a round stepped to and paused at)
// becomes an entry of the browser's history, so that back and forward step through them.
#include <functional>
#include <string>

#include "app/gui/runtime/frame_extension.h"
#include "app/gui/share/copy_command.h"
#include "app/gui/teaching/lesson_player.h"

namespace ringviz::web {

class CopyLink : public gui::FrameExtension {
 public:
  // `command` gives the state on screen, as Copy command sees it, `lessons` the lesson playing;
  // both must outlive this.
  CopyLink(const gui::CopyCommand* command, const gui::LessonPlayer* lessons) : command_(command), lessons_(lessons) {}

  // The link of the view on screen now.
  std::string fragment(gui::GuiApp& app) const;
  // The fragment the page's address shows; a fragment the page itself opened (a link, back
  // or forward) is not pushed again. `replace_next`: the next change replaces this entry of
  // the history instead of adding one (the link as given, written out in full).
  void showing(std::string fragment, bool replace_next) {
    shown_ = std::move(fragment);
    replace_next_ = replace_next;
  }
  const std::string& shown() const { return shown_; }

  void setup_panel_end(gui::GuiApp& app) override;
  void after_panels(gui::GuiApp& app, const gui::PanelLayout& panels) override;

 private:
  const gui::CopyCommand* command_;
  const gui::LessonPlayer* lessons_;
  std::string shown_;
  bool replace_next_ = false;
};

}  // namespace ringviz::web
