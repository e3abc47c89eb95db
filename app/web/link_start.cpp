#include "app/web/link_start.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/gui/hosts/gui_options.h"
#include "app/gui/hosts/startup.h"
#include "app/options/config_flags.h"
#include "app/options/number_flags.h"
#include "app/web/view_link.h"
#include "core/model/input_error.h"

namespace ringviz::web {

LinkStart parse_link(const std::string& fragment) {
  LinkLesson lesson;
  std::vector<std::string> args = fragment_arguments(fragment, &lesson);
  CLI::App parser{"ringviz page", "ringviz"};
  cli::ConfigFlags config;
  cli::add_config_flags(parser, config);
  gui::GuiFlags flags;
  gui::add_gui_flags(parser, flags);
  cli::refuse_empty_values(parser, "the README's list of link keys");
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  try {
    parser.parse(args);
  } catch (const CLI::ParseError& error) {
    throw InputError(cli::parse_error_message(error, parser, "ringviz --help"));
  }
  LinkStart link;
  link.language_given = parser.get_option("--lang")->count() > 0;
  flags.lang = link.language_given ? config.lang : std::string();
  flags.settings = "off";  // a link shows the same picture whatever was chosen before
  link.start = gui::prepare_gui_start(flags, cli::config_from_flags(config));
  link.round = flags.round;
  const gui::StartupPreferences startup = gui::startup_preferences(flags, false);
  link.language = startup.language;
  link.present = flags.present;
  link.predict = flags.predict;
  if (!lesson.name.empty()) {
    // A shipped lesson, by its file name without .json; its scene through the same checked
    // conversion as every number flag.
    const auto folder = find_lesson_folder(std::filesystem::path("/"));
    std::string names;
    for (const std::filesystem::path& file : folder ? list_lesson_files(*folder) : std::vector<std::filesystem::path>{}) {
      if (file.stem().string() == lesson.name) link.lesson = load_lesson_file(file);
      names += (names.empty() ? "" : ", ") + file.stem().string();
    }
    if (!link.lesson) throw InputError("lesson: '" + lesson.name + "' is not a shipped lesson (" + names + ")");
    const std::size_t scene = lesson.scene.empty() ? 1 : static_cast<std::size_t>(cli::parse_number_in_range(
                                                          lesson.scene, "scene", 1,
                                                          static_cast<std::int64_t>(link.lesson->scenes.size())));
    link.lesson_seconds = link.lesson->scenes[scene - 1].start_seconds;
  } else if (!lesson.scene.empty()) {
    throw InputError("scene: a scene needs a lesson (lesson=NAME)");
  }
  return link;
}

}  // namespace ringviz::web
