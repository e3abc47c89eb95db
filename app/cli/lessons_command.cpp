// ringviz lessons: the shipped lessons by name, with their scene count, their length as
// `ringviz record` records them and their title (app/cli/shipped_lessons.h).
#include <iostream>
#include <memory>

#include "app/cli/command.h"
#include "app/cli/config_flags.h"
#include "app/cli/shipped_lessons.h"
#include "core/model/text.h"

namespace ringviz::cli {

Command add_lessons_command(CLI::App& app) {
  auto lang = std::make_shared<std::string>("en");
  CLI::App* parser = app.add_subcommand(
      "lessons",
      "list the shipped lessons: the name `record --lesson` takes, scenes, seconds as recorded, title");
  add_choice_option(*parser, "--lang", *lang, kLanguageNames, "language of the titles and headings");
  Command command;
  command.parser = parser;
  command.run = [lang]() -> int {
    return print_shipped_lessons(std::cout, std::cerr, parse_language(*lang, "--lang"));
  };
  return command;
}

}  // namespace ringviz::cli
