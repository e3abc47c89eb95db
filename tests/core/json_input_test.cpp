// User files and user text in messages (docs/architecture.md, "Reading input files"): every
// problem is one line naming the file and the line:column, and what the user wrote is shown
// escaped, never raw.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "core/input/json_input.h"
#include "core/model/config.h"
#include "core/input/initial_values.h"
#include "core/model/input_error.h"
#include "core/model/text.h"

#include "capture_input_error.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

struct InitFile {
  std::filesystem::path path;
  explicit InitFile(const std::string& contents)
      : path(std::filesystem::temp_directory_path() /
             ("ringviz_json_input_" + std::to_string(::getpid()) + ".json")) {
    std::ofstream(path) << contents;
  }
  ~InitFile() { std::filesystem::remove(path); }
};

std::string init_error(const std::string& contents, DType dtype) {
  const InitFile file(contents);
  Config config = ConfigBuilder().ranks(2).count(2).dtype(dtype).init(InitKind::file);
  config.init.path = file.path.string();
  return input_error([&] { make_initial_state(config); });
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_CASE("escape_for_message shows control characters and invalid UTF-8 as escapes") {
  CHECK(escape_for_message("plain text") == "plain text");
  CHECK(escape_for_message("a\nb\tc\rd") == "a\\nb\\tc\\rd");
  CHECK(escape_for_message("\x1b[31mred") == "\\x1b[31mred");
  CHECK(escape_for_message(std::string("nul\0end", 7)) == "nul\\x00end");
  CHECK(escape_for_message("del\x7f") == "del\\x7f");
  CHECK(escape_for_message("\xff\xfe") == "\\xff\\xfe");
  CHECK(escape_for_message("cut \xe4\xb8") == "cut \\xe4\\xb8");
  CHECK(escape_for_message("overlong \xc0\xaf") == "overlong \\xc0\\xaf");
  CHECK(escape_for_message("surrogate \xed\xa0\x80") == "surrogate \\xed\\xa0\\x80");
  CHECK(escape_for_message("c1 \xc2\x85") == "c1 \\u0085");
}

TEST_CASE("escape_for_message keeps printable text, Chinese and U+FFFD included") {
  CHECK(escape_for_message("环形 AllReduce ±1") == "环形 AllReduce ±1");
  CHECK(escape_for_message("\xEF\xBF\xBD") == "\xEF\xBF\xBD");
  CHECK(escape_for_message("back\\slash") == "back\\slash");
}

TEST_CASE("a JSON syntax error names the line and column in our words") {
  const std::string message = input_error([] { parse_json_input("[1,\n 2,\n x]", "f.json"); });
  CHECK(message.rfind("f.json:3:2: not valid JSON: ", 0) == 0);
  CHECK(!contains(message, "json.exception"));
}

TEST_CASE("a number beyond the range of a double is an input error at its position") {
  const std::string message = input_error([] { parse_json_input("{\"a\": [1,\n  1e400]}", "f.json"); });
  CHECK(message == "f.json:2:3: 1e400 is too large for a number (beyond ±1.8e308)");
}

TEST_CASE("nesting deeper than the limit is refused at the first bracket too deep") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string message = input_error([&] { parse_json_input(deep, "deep.json"); });
  CHECK(message.rfind("deep.json:1:" + std::to_string(kMaxJsonDepth + 1) + ": nested more than", 0) == 0);
  const std::string at_limit = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  CHECK(input_error([&] { parse_json_input(at_limit, "ok.json"); }) == "(no error)");
}

TEST_CASE("a NUL byte anywhere in a JSON input is refused at its line and column") {
  using namespace std::string_literals;
  CHECK(input_error([] { parse_json_input("[[1,\0 2]]"s, "f.json"); }) ==
        "f.json:1:5: a NUL byte (0x00): the file is not text");
  CHECK(input_error([] { parse_json_input("[[1,2],\n [3,4]]\0"s, "f.json"); }) ==
        "f.json:2:8: a NUL byte (0x00): the file is not text");
  CHECK(contains(init_error("[[1,2],[3,4]]\0"s, DType::f32), ":1:14: a NUL byte (0x00)"));
}

TEST_CASE("json_value_offset finds a value by pointer, or its nearest ancestor") {
  const std::string text = "{\"a\\\"b\": [10, {\"x\": \"]\"}, 30], \"w\": {\"h\": 4}}";
  CHECK(text.substr(json_value_offset(text, "/a\"b/2"), 2) == "30");
  CHECK(text.substr(json_value_offset(text, "/w/h"), 1) == "4");
  CHECK(text.substr(json_value_offset(text, "/w/missing"), 1) == "{");
  CHECK(json_value_offset(text, "") == 0);
  CHECK(json_value_position("[1,\n [2, 3]]", "f", "/1/1") == "f:2:6");
}

TEST_CASE("an init value that does not fit the element type is refused with its position and the range") {
  CHECK(contains(init_error("[[1, 2],\n [3000000000, 4]]", DType::i32),
                 ":2:3: [1][0] (GPU 1, element 0): 3000000000 does not fit i32 (whole numbers from -2147483648 to 2147483647)"));
  CHECK(contains(init_error("[[1, 1.5], [3, 4]]", DType::i64), "[0][1] (GPU 0, element 1): 1.5 does not fit i64"));
  CHECK(contains(init_error("[[1, 1e23], [3, 4]]", DType::i64), "1e23 does not fit i64"));
  CHECK(contains(init_error("[[1, 9223372036854775808], [3, 4]]", DType::i64), "9223372036854775808 does not fit i64"));
  CHECK(contains(init_error("[[1, \"nan\"], [3, 4]]", DType::i32), "\"nan\" does not fit i32"));
  CHECK(contains(init_error("[[1, 70000], [3, 4]]", DType::f16), "70000 does not fit f16 (finite values up to ±65504"));
  CHECK(contains(init_error("[[1, 65520], [3, 4]]", DType::f16), "65520 does not fit f16"));
  CHECK(contains(init_error("[[1, 3.4e38], [3, 4]]", DType::bf16), "3.4e38 does not fit bf16"));
  CHECK(contains(init_error("[[1, -1e39], [3, 4]]", DType::f32), "-1e39 does not fit f32"));
  CHECK(contains(init_error("[[1, 1e400], [3, 4]]", DType::f64), ":1:6: 1e400 is too large for a number"));
  CHECK(contains(init_error("[[1, \"x\\u001b\"], [3, 4]]", DType::f32), "found \"x\\x1b\""));
}

TEST_CASE("an init value written with a fraction is refused for integer types even when its double is whole") {
  CHECK(contains(init_error("[[1, 1e-400], [3, 4]]", DType::i32), "[0][1] (GPU 0, element 1): 1e-400 does not fit i32"));
  CHECK(contains(init_error("[[1, 2], [-1e-99999999999, 4]]", DType::i64), "[1][0] (GPU 1, element 0): -1e-99999999999 does not fit"));
  CHECK(contains(init_error("[[1.00000000000000001, 2], [3, 4]]", DType::i32), "1.00000000000000001 does not fit i32"));
  CHECK(init_error("[[0e-5, 2.5e1], [-0.0, 4.000]]", DType::i32) == "(no error)");
  CHECK(init_error("[[1e-400, 2], [3, 4]]", DType::f32) == "(no error)");
}

TEST_CASE("an echoed value longer than 40 characters is cut with an ellipsis") {
  CHECK(shortened_for_message(std::string(40, '7')) == std::string(40, '7'));
  CHECK(shortened_for_message(std::string(41, '7')) == std::string(40, '7') + "…");
  CHECK(shortened_for_message("值" + std::string(45, 'x')) == "值" + std::string(39, 'x') + "…");
  const std::string digits(5000, '9');
  const std::string message = init_error("[[1, " + digits + "], [3, 4]]", DType::f32);
  CHECK(contains(message, std::string(40, '9') + "… is too large for a number"));
  CHECK(message.size() < 200);
  const std::string wide = init_error("[[1, " + std::string(60, '1') + ".5], [3, 4]]", DType::i64);
  CHECK(contains(wide, std::string(40, '1') + "… does not fit i64"));
}

TEST_CASE("an init value that only rounds to the element type is accepted") {
  CHECK(init_error("[[65519, 0.1], [-65504, 1e-9]]", DType::f16) == "(no error)");
  CHECK(init_error("[[3.4028235e38, 1e-50], [\"inf\", \"nan\"]]", DType::f32) == "(no error)");
  CHECK(init_error("[[-2147483648, 2147483647], [3.0, -0]]", DType::i32) == "(no error)");
  CHECK(init_error("[[18446744073709551615, 1e308], [1, 2]]", DType::f64) == "(no error)");
}

TEST_CASE("an init file that is a directory is refused as such") {
  Config config = ConfigBuilder().init(InitKind::file);
  config.init.path = std::filesystem::temp_directory_path().string();
  CHECK(contains(input_error([&] { make_initial_state(config); }), ": is a directory"));
}

TEST_CASE("a device given as an input file is refused before anything is read") {
  CHECK(input_error([] { read_input_text("/dev/zero", "test file", 100000); }) ==
        "test file /dev/zero: is not a regular file (a device); give a file");
}

TEST_CASE("a FIFO given as an input file is refused at once instead of waiting for a writer") {
  const std::filesystem::path fifo =
      std::filesystem::temp_directory_path() / ("ringviz-fifo-" + std::to_string(::getpid()));
  std::filesystem::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string message = input_error([&] { read_input_text(fifo.string(), "test file", 100000); });
  std::filesystem::remove(fifo);
  CHECK(contains(message, ": is not a regular file (a FIFO); give a file"));
}

}  // namespace
}  // namespace ringviz
