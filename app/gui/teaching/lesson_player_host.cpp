#include "app/gui/teaching/lesson_player_host.h"

#include <filesystem>
#include <system_error>

namespace ringviz::gui {

void InteractiveExtras::attach(GuiApp& app) {
  std::error_code ec;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (const auto folder = find_lesson_folder(ec ? std::filesystem::current_path() : executable))
    lessons.set_lesson_files(list_lesson_files(*folder));
  lessons.set_interactive(true);
  recorder.right_edge = [this](const PanelLayout& panels) {
    return lessons.bar_left() > 0 ? lessons.bar_left() : panels.caption.right();
  };
  lessons.left_limit = [this, &app] { return app.views().tabs_right() + recorder.window_width(); };
  app.add_extension(&recorder);
  app.add_extension(&lessons);
}

}  // namespace ringviz::gui
