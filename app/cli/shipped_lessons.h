#pragma once
// The lessons that ship with ringviz, as the command line names them: `ringviz lessons` lists
// them and `ringviz record --lesson NAME` takes one of their names. Both look in the same folder
// (find_lesson_folder, core/teaching/lesson.h), the one the GUI's lesson menu reads. The
// `lessons` subcommand itself is add_lessons_command (app/cli/command.h), defined here.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "core/model/text.h"

namespace ringviz::cli {

// The folder `ringviz lessons` lists. Throws InputError naming every folder tried (and
// RINGVIZ_LESSONS) when none exists.
std::filesystem::path shipped_lesson_folder();

// A lesson's name on the command line: its file's stem, "06-ddp-vs-zero2".
std::string lesson_name(const std::filesystem::path& file);

// `--lesson TEXT`: a lesson file's path (it exists, or TEXT has a '/'), "default", or the name
// of a shipped lesson (".json" optional). Throws InputError, one line, for a name the folder
// lacks: it lists the names there are, or points at `ringviz lessons` when they are many.
std::filesystem::path resolve_lesson(const std::string& text);

// Prints the shipped lessons as a table: name, scenes, seconds as `ringviz record --lesson`
// records them, and the title in `language`. A file that does not load is reported on `errors`
// (its one-line InputError) and left out. Returns the exit code: 0, or 2 when a file was left out.
int print_shipped_lessons(std::ostream& out, std::ostream& errors, Language language);

}  // namespace ringviz::cli
