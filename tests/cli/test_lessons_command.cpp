// `ringviz lessons` and `record --list-lessons` list the shipped lessons by the names
// `record --lesson` takes, with their scene count, length as recorded and title, in English and
// Chinese; an unknown --lesson name is one line that lists those names.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_ringviz.h"

using ringviz::test::lines_of;
using ringviz::test::run_command;
using ringviz::test::run_ringviz;
using ringviz::test::RunResult;
using ringviz::test::TempDir;
using ringviz::test::terminal_columns;

namespace {

const std::filesystem::path kLessons = RINGVIZ_SOURCE_LESSONS_DIR;
const std::filesystem::path kGolden = RINGVIZ_LESSONS_GOLDEN_DIR;

// The title and end cards of a stage recording, the layout `record` uses by default
// (docs/recording.md, "The stage").
constexpr double kCardSeconds = 2.5 + 2.5;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct ShippedLesson {
  std::string name;
  std::size_t scenes = 0;
  double seconds = 0;  // as recorded: the steps (docs/lessons.md, "Step") and both cards
  nlohmann::json title;
};

// The lessons in the source tree, read straight from their JSON so that the listing is checked
// against the files rather than against ringviz's own loader.
std::vector<ShippedLesson> shipped_lessons() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kLessons))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<ShippedLesson> lessons;
  for (const std::filesystem::path& file : files) {
    const nlohmann::json lesson = nlohmann::json::parse(read_text(file));
    ShippedLesson shipped{file.stem().string(), lesson["scenes"].size(), kCardSeconds, lesson["title"]};
    for (const nlohmann::json& scene : lesson["scenes"])
      for (const nlohmann::json& step : scene["steps"]) {
        shipped.seconds += step.value("pause_before", 0.0) + step.value("pause", 1.0);
        for (const char* axis : {"rounds", "iterations"})
          if (step.contains(axis))
            shipped.seconds += (step[axis][1].get<double>() - step[axis][0].get<double>()) *
                               step.value(std::string(axis) == "rounds" ? "seconds_per_round" : "seconds_per_iteration", 1.5);
      }
    lessons.push_back(shipped);
  }
  return lessons;
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", seconds);
  std::string shown = text;
  shown.erase(shown.find_last_not_of('0') + 1);
  if (shown.back() == '.') shown.pop_back();
  return shown;
}

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// ringviz with RINGVIZ_LESSONS set to `folder`.
RunResult run_with_lessons(const std::filesystem::path& folder, const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {"/usr/bin/env", "RINGVIZ_LESSONS=" + folder.string(), RINGVIZ_EXECUTABLE};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run_command(argv);
}

// The smallest lesson docs/lessons.md allows, titled `title`.
std::string tiny_lesson(const std::string& title) {
  return R"({"schema": "ringviz.lesson/1", "title": {"en": ")" + title + R"(", "zh": "小课"},
    "summary": {"en": "S.", "zh": "摘要。"},
    "scenes": [{"title": {"en": "A", "zh": "甲"}, "views": ["ring"],
                "steps": [{"pause": 3, "caption": {"en": "C.", "zh": "字。"}}]}]})";
}

bool built_without_gui(const RunResult& run) { return run.err.find("RINGVIZ_GUI=OFF") != std::string::npos; }

}  // namespace

TEST_CASE("ringviz lessons lists every shipped lesson: name, scenes, seconds as recorded, title") {
  const std::vector<ShippedLesson> shipped = shipped_lessons();
  REQUIRE(shipped.size() >= 6);
  for (const char* lang : {"en", "zh"}) {
    CAPTURE(lang);
    const RunResult run = run_ringviz({"lessons", "--lang", lang});
    INFO("stdout:\n" << run.out << "stderr:\n" << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.err.empty());
    const std::vector<std::string> lines = lines_of(run.out);
    // A heading, one line per lesson, then what the seconds count.
    REQUIRE(lines.size() == shipped.size() + 2);
    const std::size_t title_column = terminal_columns(lines[0]) - terminal_columns(lang == std::string("zh") ? "标题" : "title");
    for (std::size_t i = 0; i < shipped.size(); ++i) {
      const std::string& line = lines[i + 1];
      const std::vector<std::string> words = words_of(line);
      REQUIRE(words.size() >= 4);
      CHECK(words[0] == shipped[i].name);
      CHECK(words[1] == std::to_string(shipped[i].scenes));
      CHECK(words[2] == seconds_text(shipped[i].seconds));
      // The titles start in one column, Chinese counted two columns a character.
      const std::string title = shipped[i].title[lang].get<std::string>();
      REQUIRE(line.size() > title.size());
      CHECK(line.substr(line.size() - title.size()) == title);
      CHECK(terminal_columns(line.substr(0, line.size() - title.size())) == title_column);
    }
    CHECK(lines.back().find("record --lesson") != std::string::npos);
    CHECK(lines.back().find("2.5") != std::string::npos);
    // The whole listing, byte for byte (regenerate: ringviz lessons --lang LANG > lessons-LANG.txt).
    CHECK(run.out == read_text(kGolden / ("lessons-" + std::string(lang) + ".txt")));
  }
}

TEST_CASE("record --list-lessons prints what ringviz lessons does, without --out, and only alone") {
  for (const char* lang : {"en", "zh"}) {
    const RunResult listed = run_ringviz({"record", "--list-lessons", "--lang", lang});
    CHECK(listed.exit_code == 0);
    CHECK(listed.out == run_ringviz({"lessons", "--lang", lang}).out);
  }
  const RunResult both = run_ringviz({"record", "--list-lessons", "--out", "video.mp4"});
  CHECK(both.exit_code == 2);
  CHECK(lines_of(both.err).size() == 1);
  CHECK(both.err.find("--list-lessons: not with --out") != std::string::npos);
  const RunResult neither = run_ringviz({"record", "--lesson", "default"});
  CHECK(neither.exit_code == 2);
  CHECK(lines_of(neither.err).size() == 1);
  CHECK(neither.err.find("--out: missing") != std::string::npos);
}

TEST_CASE("the seconds listed are the length record gives the video") {
  // record refuses a --from past the end naming the video's length, from the same function.
  const RunResult listed = run_ringviz({"lessons"});
  const std::vector<std::string> lines = lines_of(listed.out);
  REQUIRE(lines.size() > 2);
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    const std::vector<std::string> words = words_of(lines[i]);
    CAPTURE(words[0]);
    TempDir folder;
    const RunResult past = run_ringviz({"record", "--lesson", words[0], "--from", "36000", "--out",
                                        (folder.path() / "frames/").string()});
    if (built_without_gui(past)) return;
    CHECK(past.exit_code == 2);
    char lasts[64];
    std::snprintf(lasts, sizeof lasts, "which lasts %.3g s", std::stod(words[2]));
    INFO(past.err);
    CHECK(past.err.find(lasts) != std::string::npos);
  }
}

TEST_CASE("an unknown --lesson is one line that names it and lists the shipped lessons") {
  TempDir folder;
  const RunResult run = run_ringviz({"record", "--lesson", "no-such-lesson", "--out", (folder.path() / "frames/").string()});
  if (built_without_gui(run)) return;
  INFO(run.err);
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  REQUIRE(lines_of(run.err).size() == 1);
  CHECK(run.err.find("--lesson: no lesson 'no-such-lesson'") != std::string::npos);
  for (const ShippedLesson& lesson : shipped_lessons()) CHECK(run.err.find(lesson.name) != std::string::npos);
  // A name with its .json, and the default, are found.
  for (const char* name : {"06-ddp-vs-zero2.json", "default"}) {
    const RunResult found = run_ringviz({"record", "--lesson", name, "--from", "36000", "--out",
                                         (folder.path() / "frames/").string()});
    CHECK(found.err.find("--from") != std::string::npos);
  }
}

TEST_CASE("a lesson folder of many lessons, or with a broken one, or none at all, is said so") {
  TempDir folder;
  for (int i = 1; i <= 13; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "%02d-tiny.json", i);
    folder.write(name, tiny_lesson("Tiny " + std::to_string(i)));
  }
  // Thirteen names would not read as one line: the message points at the listing instead.
  const RunResult unknown = run_with_lessons(folder.path(), {"record", "--lesson", "14-tiny", "--out",
                                                             (folder.path() / "frames/").string()});
  if (!built_without_gui(unknown)) {
    INFO(unknown.err);
    CHECK(unknown.exit_code == 2);
    CHECK(lines_of(unknown.err).size() == 1);
    CHECK(unknown.err.find("13 lessons: `ringviz lessons` lists them") != std::string::npos);
    CHECK(unknown.err.find("01-tiny") == std::string::npos);
  }
  const RunResult listed = run_with_lessons(folder.path(), {"lessons"});
  CHECK(listed.exit_code == 0);
  CHECK(lines_of(listed.out).size() == 13 + 2);
  CHECK(lines_of(listed.out)[1].find("01-tiny") == 0);
  CHECK(words_of(lines_of(listed.out)[1])[2] == "8");  // 3 s of lesson and both cards

  folder.write("07-tiny.json", "{\"schema\": \"ringviz.lesson/1\", \"title\": 7}");
  const RunResult broken = run_with_lessons(folder.path(), {"lessons"});
  CHECK(broken.exit_code == 2);
  CHECK(lines_of(broken.out).size() == 12 + 2);  // the others are still listed
  REQUIRE(lines_of(broken.err).size() == 1);
  CHECK(broken.err.find("07-tiny.json") != std::string::npos);

  const RunResult missing = run_with_lessons(folder.path() / "nowhere", {"lessons"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.out.empty());
  CHECK(lines_of(missing.err).size() == 1);
  CHECK(missing.err.find("no lesson folder") != std::string::npos);
  CHECK(missing.err.find("RINGVIZ_LESSONS") != std::string::npos);
}
