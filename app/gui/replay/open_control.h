#pragma once
// The Open control of the setup panel: a path to a ringviz.trace/1 document, an Open button,
// and the captures shipped beside the lessons (assets/captures).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/text/strings.h"

namespace ringviz::gui {

// The captures folders: `captures` beside every folder lessons are looked for in
// (lesson_folder_candidates), the first that exists; its .json files sorted by name.
std::vector<std::filesystem::path> shipped_captures();

// The path field's hint as wide as fits `width` in the current font: whole, else the example
// file name alone (its explanation in brackets left out), else nothing.
std::string fitting_hint(const std::string& hint, float width);

class OpenControl {
 public:
  // Returns the path to open when the user asks for one.
  std::optional<std::string> draw(const UiStrings& t);

 private:
  char path_[1024] = {};
  std::optional<std::vector<std::filesystem::path>> shipped_;  // looked up once, when first drawn
};

}  // namespace ringviz::gui
