// One parser per value (core/model/checked_value.h): `--init values:`, an init file and a
// lesson's arrays accept and refuse exactly the same numbers, integers exactly; integer
// reductions that wrap are found against a 128-bit reference; a JSON object with a repeated key
// is refused wherever a JSON file is read.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <unistd.h>

#include "core/input/integer_overflow.h"
#include "core/input/initial_values.h"
#include "core/input/json_input.h"
#include "core/model/checked_value.h"
#include "core/model/config.h"

#include "capture_input_error.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& contents)
      : path(std::filesystem::temp_directory_path() /
             ("ringviz_checked_value_" + std::to_string(::getpid()) + ".json")) {
    std::ofstream(path) << contents;
  }
  ~TempFile() { std::filesystem::remove(path); }
};

// The first GPU's first input as `dtype` from `--init values:TEXT/0` and from the same number in
// an init file: both must accept it (giving the same value) or both refuse it.
struct BothPaths {
  std::string values_error;
  std::string file_error;
  std::optional<ElementValue> values_stored;
  std::optional<ElementValue> file_stored;
};

BothPaths read_both_ways(const std::string& number, DType dtype) {
  BothPaths both;
  Config config = ConfigBuilder().ranks(2).count(1).dtype(dtype);
  const auto first_input = [&](const Config& c) { return read_element(make_initial_state(c), 0, 0); };
  both.values_error = input_error([&] {
    Config values = config;
    values.init = parse_init("values:" + number + "/0", "--init");
    check_init_values(values.init, dtype, "--init");
    both.values_stored = first_input(values);
  });
  const bool word = number == "nan" || number == "inf" || number == "-inf";
  const TempFile file("[[" + (word ? "\"" + number + "\"" : number) + "], [0]]");
  both.file_error = input_error([&] {
    Config from_file = config;
    from_file.init.kind = InitKind::file;
    from_file.init.path = file.path.string();
    both.file_stored = first_input(from_file);
  });
  return both;
}

void check_refused_both_ways(const std::string& number, DType dtype) {
  CAPTURE(number);
  CAPTURE(dtype_name(dtype));
  const BothPaths both = read_both_ways(number, dtype);
  CHECK(both.values_error.find("does not fit " + std::string(dtype_name(dtype))) != std::string::npos);
  CHECK(both.file_error.find("does not fit " + std::string(dtype_name(dtype))) != std::string::npos);
}

TEST_CASE("--init values: refuses exactly what an init file refuses: 3e9 and 1.5 and nan as i32, 70000 as f16") {
  check_refused_both_ways("3e9", DType::i32);
  check_refused_both_ways("1.5", DType::i32);
  check_refused_both_ways("1.5", DType::i64);
  check_refused_both_ways("nan", DType::i32);
  check_refused_both_ways("inf", DType::i64);
  check_refused_both_ways("1e-400", DType::i32);
  check_refused_both_ways("70000", DType::f16);
  check_refused_both_ways("1e39", DType::f32);
  check_refused_both_ways("-9223372036854775809", DType::i64);
  check_refused_both_ways("9223372036854775808", DType::i64);
  check_refused_both_ways("9223372036854775807.0", DType::i32);
  // The message names the flag, the GPU and element, the value and the range.
  CHECK(read_both_ways("3e9", DType::i32).values_error ==
        "--init: values: GPU 0, element 0: 3000000000 does not fit i32 (whole numbers from -2147483648 to 2147483647)");
}

TEST_CASE("--init values: accepts exactly what an init file accepts, integers exactly") {
  const std::vector<std::pair<std::string, DType>> accepted = {
      {"9007199254740993", DType::i64},   {"-9223372036854775808", DType::i64}, {"9223372036854775807", DType::i64},
      {"3.0", DType::i32},                {"2.5e1", DType::i32},                {"-0", DType::i32},
      {"0.1", DType::f16},                {"65504", DType::f16},                {"nan", DType::f32},
      {"-inf", DType::bf16},              {"1e-400", DType::f64},               {"9223372036854775807.0", DType::i64}};
  for (const auto& entry : accepted) {
    // Named copies: clang before 16 cannot capture structured bindings (CAPTURE is a lambda).
    const std::string number = entry.first;
    const DType dtype = entry.second;
    CAPTURE(number);
    CAPTURE(dtype_name(dtype));
    const BothPaths both = read_both_ways(number, dtype);
    CHECK(both.values_error == "(no error)");
    CHECK(both.file_error == "(no error)");
    REQUIRE(both.values_stored);
    REQUIRE(both.file_stored);
    CHECK(both.values_stored->is_integer == both.file_stored->is_integer);
    CHECK(both.values_stored->integer == both.file_stored->integer);
    CHECK(written_text(*both.values_stored) == written_text(*both.file_stored));
  }
  // A double holds 9007199254740992 or ...994, never ...993: the i64 path keeps the text's value.
  CHECK(read_both_ways("9007199254740993", DType::i64).values_stored->integer == 9007199254740993LL);
  CHECK(read_both_ways("9007199254740993", DType::i64).file_stored->integer == 9007199254740993LL);
}

TEST_CASE("an i64 file value below INT64_MIN is refused, not clamped, even written as a float") {
  Config config = ConfigBuilder().ranks(2).count(1).dtype(DType::i64).init(InitKind::file);
  for (const char* low : {"-9223372036854775809", "-9223372036854775808.5", "-9.2233720368547758081e18"}) {
    CAPTURE(low);
    const TempFile file(std::string("[[") + low + "], [1]]");
    config.init.path = file.path.string();
    CHECK(input_error([&] { check_initial_values(config); }).find(std::string(low) + " does not fit i64") !=
          std::string::npos);
  }
}

TEST_CASE("read_written_number takes JSON's decimals and nan, inf, -inf, and nothing else") {
  for (const char* refused : {"", " 1", "1 ", "+1", "01", ".5", "5.", "0x10", "1e", "1e+", "nan(1)", "infinity", "-nan",
                              "1,2", "4x"}) {
    CAPTURE(refused);
    CHECK(read_written_number(refused).reading == NumberReading::not_a_number);
  }
  CHECK(read_written_number("1e400").reading == NumberReading::beyond_double);
  CHECK(read_written_number("-1E+400").reading == NumberReading::beyond_double);
  const WrittenNumber tiny = read_written_number("-1e-99999999999");
  CHECK(tiny.reading == NumberReading::number);
  CHECK_FALSE(tiny.value.is_integer);  // its double is -0, but the text is no whole number
  CHECK(read_written_number("0e-99999999999").value.is_integer);
  CHECK(read_written_number("1.00000000000000001").value.is_integer == false);
  CHECK(read_written_number("1E+18").value.integer == 1000000000000000000LL);
  CHECK_FALSE(read_written_number("1e19").value.is_integer);  // whole, beyond int64
  CHECK_THROWS_WITH_AS(parse_init("values:1,1e400/2,3", "--init"),
                       doctest::Contains("'1e400' is too large for a number (beyond ±1.8e308)"), InputError);
  CHECK_THROWS_WITH_AS(parse_init("values:1,0x10/2,3", "--init"), doctest::Contains("'0x10' is not a number"),
                       InputError);
}

TEST_CASE("a value table is written back exactly: integers by their digits, reals by their shortest decimal") {
  const InitPattern init = parse_init("values:9007199254740993,-9223372036854775808/0.1,nan,-inf");
  CHECK(values_init_text(init.values) == "values:9007199254740993,-9223372036854775808/0.1,nan,-inf");
}

TEST_CASE("integer reductions that wrap are found at their first element against a 128-bit reference") {
  Config config = ConfigBuilder().ranks(2).count(2).dtype(DType::i32);
  const auto first = [&](const std::string& values) {
    config.init = parse_init("values:" + values);
    return first_integer_overflow(config, make_initial_state(config));
  };
  config.reduce = ReduceOp::prod;
  auto overflow = first("1,100000/2,100000");
  REQUIRE(overflow);
  CHECK(overflow->element == 1);
  CHECK(overflow->exact == "10000000000");
  CHECK(overflow->wrapped == "1410065408");  // 10^10 mod 2^32
  CHECK(integer_overflow_message(config, *overflow) ==
        "i32 prod overflows at element 1: the exact product 10000000000 does not fit i32, so it wraps around to "
        "1410065408 (two's complement, as on a GPU)");
  CHECK_FALSE(first("0,100000/100000,1"));  // a zero factor: the exact product is 0

  config.reduce = ReduceOp::avg;
  overflow = first("2147483647,1/2147483647,1");
  REQUIRE(overflow);
  CHECK(overflow->element == 0);
  CHECK(overflow->exact == "4294967294");
  CHECK(overflow->wrapped == "-1");  // the wrapped sum -2, divided by 2

  config.reduce = ReduceOp::sum;
  CHECK_FALSE(first("2147483647,-5/-1,5"));
  overflow = first("-2147483648,0/-1,0");
  REQUIRE(overflow);
  CHECK(overflow->exact == "-2147483649");
  CHECK(overflow->wrapped == "2147483647");

  config = ConfigBuilder(config).dtype(DType::i64).reduce(ReduceOp::prod).ranks(3).count(1);
  config.init = parse_init("values:9223372036854775807/9223372036854775807/9223372036854775807");
  overflow = first_integer_overflow(config, make_initial_state(config));
  REQUIRE(overflow);
  CHECK(overflow->exact == "beyond ±2^127");

  config.reduce = ReduceOp::max;  // max and min never wrap
  CHECK_FALSE(first_integer_overflow(config, make_initial_state(config)));
  config.reduce = ReduceOp::sum;
  config.dtype = DType::f32;  // floats round, they do not wrap
  CHECK_FALSE(first_integer_overflow(config, make_initial_state(config)));
}

TEST_CASE("a JSON object with a repeated key is refused naming the key and both lines") {
  const std::string text = "{\n  \"speed\": 1,\n  \"window\": {\"width\": 800, \"height\": 600},\n  \"speed\": 2\n}";
  CHECK(input_error([&] { parse_json_input(text, "settings file s.json"); }) ==
        "settings file s.json:4:3: the key \"speed\" appears twice in one object (first on line 2); keep one");
  // The same key in two different objects, and a string value equal to a key, are fine.
  CHECK(input_error([&] { parse_json_input("{\"a\": {\"b\": 1}, \"c\": {\"b\": \"a\"}}", "f"); }) == "(no error)");
  // Keys compare decoded: "\u0061" is "a".
  CHECK(input_error([&] { parse_json_input("[{\"a\": 1, \"\\u0061\": 2}]", "f"); }).find("f:1:11: the key \"a\"") == 0);
}

}  // namespace
}  // namespace ringviz
