// core's one UTF-8 decoder (core/model/text.h), which the terminal tables, the GUI's fonts and its
// caption wrapping all read text with.
#include <doctest/doctest.h>

#include <string_view>
#include <vector>

#include "core/model/text.h"

using namespace ringviz;

namespace {

struct Decoded {
  std::vector<char32_t> points;
  std::vector<std::size_t> starts;  // the byte each code point began at
};

Decoded decode(std::string_view text) {
  Decoded decoded;
  for (std::size_t at = 0; at < text.size();) {
    decoded.starts.push_back(at);
    decoded.points.push_back(next_code_point(text, at));
  }
  return decoded;
}

}  // namespace

TEST_CASE("next_code_point decodes one, two, three and four byte sequences") {
  const Decoded decoded = decode("a\xC2\xB5\xE4\xB8\xAD\xF0\x9F\x98\x80");  // a µ 中 😀
  CHECK(decoded.points == std::vector<char32_t>{U'a', U'µ', U'中', U'😀'});
  CHECK(decoded.starts == std::vector<std::size_t>{0, 1, 3, 6});
}

TEST_CASE("a malformed or cut-off sequence reads as U+FFFD one byte at a time") {
  // A stray continuation byte, a lead byte followed by ASCII, and a sequence cut off by the end.
  const Decoded decoded = decode("\x80" "\xE4" "A" "\xE4\xB8");
  CHECK(decoded.points == std::vector<char32_t>{kReplacementCharacter, kReplacementCharacter, U'A',
                                                kReplacementCharacter, kReplacementCharacter});
  CHECK(decoded.starts == std::vector<std::size_t>{0, 1, 2, 3, 4});
}

TEST_CASE("display width counts Chinese characters as two columns and everything else as one") {
  CHECK(display_width("GPU 0") == 5);
  CHECK(display_width("2 µs") == 4);
  CHECK(display_width("环形") == 4);
  CHECK(display_width("Ψ") == 1);
}
