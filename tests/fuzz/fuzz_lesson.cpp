// libFuzzer target: lesson parsing (`ringviz.lesson/1`). Any exception but InputError, and any
// sanitizer report, is a finding.
#include <cstdint>
#include <string_view>

#include "core/model/input_error.h"
#include "core/teaching/lesson.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const ringviz::Lesson lesson =
        ringviz::parse_lesson(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    // A lesson that loads must also play: every instant of it has a frame.
    ringviz::lesson_frame(lesson, lesson.duration() / 2, ringviz::Language::en);
  } catch (const ringviz::InputError&) {
    // refused with a message
  }
  return 0;
}
