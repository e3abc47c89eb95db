// A lesson file cannot take unbounded memory, time or stack (docs/architecture.md, "Reading
// input files"): depth, size, scenes, steps, texts and lists are bounded while it is read,
// and each refusal names the file position, the scene and the limit.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "core/input/json_input.h"
#include "core/model/input_error.h"
#include "core/teaching/lesson.h"

namespace ringviz {
namespace {

std::string repeated(const std::string& item, std::size_t times) {
  std::string list;
  for (std::size_t i = 0; i < times; ++i) list += (i == 0 ? "" : ",") + item;
  return list;
}

const std::string kStep = R"({"pause": 1, "caption": {"en": "go", "zh": "走"}})";

// One lesson of `scenes` copies of a scene whose steps are `steps`.
std::string lesson_of(std::size_t scenes, const std::string& steps) {
  const std::string scene = R"({"title": {"en": "S", "zh": "场"}, "views": ["ring"], "steps": [)" + steps + "]}";
  return R"({"schema": "ringviz.lesson/1", "title": {"en": "T", "zh": "课"},
             "summary": {"en": "A lesson.", "zh": "一课。"}, "scenes": [)" +
         repeated(scene, scenes) + "]}";
}

// One scene with `config`, for checks of the config's values.
std::string lesson_with_config(const std::string& config) {
  return R"({"schema": "ringviz.lesson/1", "title": {"en": "T", "zh": "课"},
             "summary": {"en": "A lesson.", "zh": "一课。"}, "scenes": [
             {"title": {"en": "S", "zh": "场"}, "views": ["ring"], "config": )" +
         config + R"(, "steps": [)" + kStep + "]}]}";
}

std::string lesson_error(const std::string& text) {
  try {
    parse_lesson(text, "hostile.json");
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_CASE("a lesson nested 100000 levels deep is refused, not a stack overflow") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  CHECK(lesson_error(deep) == "hostile.json:1:65: nested more than 64 levels deep (arrays and objects inside each other)");
}

TEST_CASE("a lesson followed by a NUL byte and more text is refused, not loaded") {
  using namespace std::string_literals;
  CHECK(contains(lesson_error(lesson_of(1, kStep) + "\0garbage"s), ": a NUL byte (0x00): the file is not text"));
}

TEST_CASE("a lesson at every limit loads") {
  const std::string caption = std::string(kMaxLessonTextCharacters, 'x');
  const std::string step = R"({"pause": 1, "caption": {"en": ")" + caption + R"(", "zh": "走"}})";
  CHECK(lesson_error(lesson_of(kMaxLessonScenes, kStep)) == "(no error)");
  CHECK(lesson_error(lesson_of(1, repeated(step, kMaxLessonSteps))) == "(no error)");
}

TEST_CASE("too many scenes or steps are refused, naming the limit") {
  CHECK(contains(lesson_error(lesson_of(kMaxLessonScenes + 1, kStep)),
                 "/scenes: scenes: 101 scenes, more than the 100 a lesson may have here"));
  const std::string many_steps = lesson_error(lesson_of(1, repeated(kStep, kMaxLessonSteps + 1)));
  CHECK(contains(many_steps, "/scenes/0/steps: steps: 201 steps, more than the 200"));
}

TEST_CASE("a caption of a million characters is refused, naming the scene, the step and the limit") {
  const std::string step = R"({"pause": 1, "caption": {"en": ")" + std::string(1000000, 'x') + R"(", "zh": "走"}})";
  CHECK(contains(lesson_error(lesson_of(1, step)),
                 "/scenes/0/steps/0/caption/en: en: 1000000 characters, more than the 2000 a lesson text may have"));
}

TEST_CASE("a highlight list longer than the limit is refused") {
  const std::string step = R"({"pause": 1, "caption": {"en": "go", "zh": "走"}, "highlight": {"gpus": [)" +
                           repeated("0", kMaxLessonListEntries + 1) + "]}}";
  CHECK(contains(lesson_error(lesson_of(1, step)), "/scenes/0/steps/0/highlight/gpus: gpus: 257 entries, more than the 256"));
}

TEST_CASE("a lesson file larger than the limit, or a folder, is refused before it is read") {
  const auto folder = std::filesystem::temp_directory_path();
  try {
    load_lesson_file(folder);
    FAIL("a folder loaded as a lesson");
  } catch (const InputError& error) {
    CHECK(contains(error.what(), ": is a directory"));
  }
}

TEST_CASE("control characters in a lesson's keys and values are escaped in the message") {
  const std::string step = R"({"pause": 1, "caption": {"en": "go", "zh": "走"}, "\u001b[2J": 1})";
  const std::string message = lesson_error(lesson_of(1, step));
  CHECK(contains(message, "\\x1b[2J: unknown field"));
  CHECK(!contains(message, "\x1b"));
}

}  // namespace
}  // namespace ringviz

namespace ringviz {
namespace {

TEST_CASE("a lesson's inline init value that does not fit the dtype is refused as an init file's is") {
  const std::string f16 = lesson_error(lesson_with_config(R"({"dtype": "f16", "count": 1, "init": [[70000], [1], [1], [1]]})"));
  CHECK(contains(f16, "hostile.json:3:"));
  CHECK(contains(f16, ": /scenes/0/config/init/0/0: init: 70000 does not fit f16 (finite values up to ±65504"));
  const std::string i32 = lesson_error(lesson_with_config(R"({"dtype": "i32", "count": 1, "init": [[1], [1.5], [1], [1]]})"));
  CHECK(contains(i32, "/scenes/0/config/init/1/0: init: 1.5 does not fit i32 (whole numbers"));
  CHECK(contains(lesson_error(lesson_with_config(R"({"dtype": "i64", "count": 1, "init": [[1e-400], [1], [1], [1]]})")),
                 "1e-400 does not fit i64"));
  CHECK(contains(lesson_error(lesson_with_config(R"({"dtype": "i32", "count": 1, "init": [[3.0], [-0.0], [25e-1], [1]]})")),
                 "/scenes/0/config/init/2/0: init: 25e-1 does not fit i32"));
  CHECK(lesson_error(lesson_with_config(R"({"dtype": "i32", "count": 1, "init": [[3.0], [-0.0], [2.5e1], [1]]})")) ==
        "(no error)");
}

TEST_CASE("a whole count beyond 64 bits is out of range, not 'not an integer'") {
  const std::string message = lesson_error(lesson_with_config(R"({"count": 100000000000000000000})"));
  CHECK(contains(message, "/scenes/0/config/count: count: 100000000000000000000 is out of range (0 to "));
  CHECK(contains(lesson_error(lesson_with_config(R"({"count": 1e30})")), "count: 1e30 is out of range (0 to "));
  CHECK(contains(lesson_error(lesson_with_config(R"({"count": 2.5})")), "count: expected an integer, got a number"));
}

}  // namespace
}  // namespace ringviz
