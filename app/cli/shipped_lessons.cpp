#include "app/cli/shipped_lessons.h"

#include <iostream>
#include <memory>

#include "app/cli/command.h"
#include "app/options/config_flags.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <system_error>

#include "core/model/input_error.h"
#include "core/output/terminal_text.h"
#include "core/teaching/lesson.h"
#include "core/teaching/lesson_recording.h"

namespace ringviz::cli {

namespace {

// Beyond this many names an unknown --lesson points at `ringviz lessons` instead of listing
// them, so that its message stays one readable line.
constexpr std::size_t kMostNamesInMessage = 12;

std::filesystem::path this_executable() {
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::current_path() : executable;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : ", ") + part;
  return text;
}

std::vector<std::string> names_in(const std::filesystem::path& folder) {
  std::vector<std::string> names;
  for (const std::filesystem::path& file : list_lesson_files(folder)) names.push_back(lesson_name(file));
  return names;
}

// Seconds as a listing shows them: at most two decimals, none that are zeros ("52", "92.4").
std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", seconds);
  std::string shown = text;
  shown.erase(shown.find_last_not_of('0') + 1);
  if (shown.back() == '.') shown.pop_back();
  return shown;
}

struct ListedLesson {
  std::string name;
  std::size_t scenes = 0;
  double seconds = 0;
  std::string title;
};

}  // namespace

std::filesystem::path shipped_lesson_folder() {
  const std::filesystem::path executable = this_executable();
  if (const std::optional<std::filesystem::path> folder = find_lesson_folder(executable)) return *folder;
  std::vector<std::string> tried;
  for (const std::filesystem::path& folder : lesson_folder_candidates(executable)) tried.push_back(folder.string());
  throw InputError("no lesson folder (looked in " + joined(tried) +
                   "); set RINGVIZ_LESSONS to the folder that holds the lessons");
}

std::string lesson_name(const std::filesystem::path& file) { return file.stem().string(); }

std::filesystem::path resolve_lesson(const std::string& text) {
  const std::filesystem::path given(text);
  std::error_code error;
  if (std::filesystem::exists(given, error) || text.find('/') != std::string::npos) return given;
  std::string file = text == "default" ? std::string(kDefaultLessonFile) : text;
  if (std::filesystem::path(file).extension() != ".json") file += ".json";
  std::filesystem::path folder;
  try {
    folder = shipped_lesson_folder();
  } catch (const InputError& missing) {
    throw InputError("--lesson: '" + text + "' is not a file, and there is " + missing.what());
  }
  if (std::filesystem::is_regular_file(folder / file, error)) return folder / file;
  const std::vector<std::string> names = names_in(folder);
  const std::string there =
      names.empty()                       ? "it holds none"
      : names.size() > kMostNamesInMessage ? std::to_string(names.size()) + " lessons: `ringviz lessons` lists them"
                                          : "the lessons: " + joined(names);
  throw InputError("--lesson: no lesson '" + text + "' in " + folder.string() + " (" + there +
                   "); give a lesson's name, 'default', or a lesson file's path");
}

int print_shipped_lessons(std::ostream& out, std::ostream& errors, Language language) {
  const std::filesystem::path folder = shipped_lesson_folder();
  std::vector<ListedLesson> listed;
  int status = 0;
  for (const std::filesystem::path& file : list_lesson_files(folder)) {
    try {
      const Lesson lesson = load_lesson_file(file);
      listed.push_back({lesson_name(file), lesson.scenes.size(),
                        recorded_lesson_seconds(lesson, kRecordedLessonCards), lesson.title.in(language)});
    } catch (const InputError& problem) {
      errors << "ringviz: " << escape_for_message(problem.what()) << "\n";
      status = 2;
    }
  }
  const std::string name_head = en_zh(language, "name", "名称");
  const std::string scenes_head = en_zh(language, "scenes", "场景");
  const std::string seconds_head = en_zh(language, "seconds", "秒");
  std::size_t name_width = display_width(name_head);
  for (const ListedLesson& lesson : listed) name_width = std::max(name_width, display_width(lesson.name));
  const std::size_t scenes_width = std::max<std::size_t>(display_width(scenes_head), 3);
  const std::size_t seconds_width = std::max<std::size_t>(display_width(seconds_head), 7);
  out << pad_right(name_head, name_width) << "  " << pad_left(scenes_head, scenes_width) << "  "
      << pad_left(seconds_head, seconds_width) << "  " << en_zh(language, "title", "标题") << "\n";
  for (const ListedLesson& lesson : listed)
    out << pad_right(lesson.name, name_width) << "  " << pad_left(std::to_string(lesson.scenes), scenes_width) << "  "
        << pad_left(seconds_text(lesson.seconds), seconds_width) << "  " << lesson.title << "\n";
  // What the seconds count, in the recorder's own card lengths.
  static_assert(kRecordedLessonCards == LessonCards::title_and_end, "the note says the cards are counted");
  const std::string title_card = seconds_text(kTitleCardSeconds);
  const std::string end_card = seconds_text(kEndCardSeconds);
  out << en_zh(language,
               "seconds: as `ringviz record --lesson NAME` records it: title card " + title_card +
                   " s + lesson + end card " + end_card + " s (--layout app: the lesson alone)\n",
               "秒：`ringviz record --lesson 名称` 录下的长度：片头卡片 " + title_card + " 秒 + 课程 + 片尾卡片 " +
                   end_card + " 秒（--layout app：只有课程）\n");
  return status;
}

// ringviz lessons: the shipped lessons by name, with their scene count, their length as
// `ringviz record` records them and their title.
Command add_lessons_command(CLI::App& app) {
  auto lang = std::make_shared<std::string>("en");
  CLI::App* parser = app.add_subcommand(
      "lessons",
      "list the shipped lessons: the name `record --lesson` takes, scenes, seconds as recorded, title");
  add_lang_option(*parser, *lang, "the titles and headings");
  Command command;
  command.parser = parser;
  command.run = [lang]() -> int {
    return print_shipped_lessons(std::cout, std::cerr, parse_language(*lang, "--lang"));
  };
  return command;
}

}  // namespace ringviz::cli
