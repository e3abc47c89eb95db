// Bad input is refused with one sentence that names the field (docs/architecture.md, "How a round
// flows"), before anything is allocated.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <unistd.h>

#include "core/algorithms/registry.h"
#include "core/engine/backend.h"
#include "core/model/config.h"
#include "core/model/checked_value.h"
#include "core/input/initial_values.h"
#include "core/engine/session.h"

#include "capture_input_error.h"
#include "tests/support/config_builder.h"

namespace ringviz {
namespace {

using test::ConfigBuilder;

// The field a message names: everything before the first colon ("--op: unknown ..." -> "--op").
std::string field_of(const std::string& message) { return message.substr(0, message.find(':')); }

// `part` when `text` contains it, otherwise the whole text: a failed CHECK then shows the
// message that lacked it.
std::string find_in(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos ? part : text;
}

TEST_CASE("validate() accepts the defaults and names the field it refuses") {
  CHECK(validate(Config{}).value_or("") == "");

  SUBCASE("too few or too many GPUs") {
    const std::string none = validate(ConfigBuilder().ranks(0)).value_or("");
    CHECK(field_of(none) == "gpus");
    const std::string many = validate(ConfigBuilder().ranks(kMaxRanks + 1)).value_or("");
    CHECK(field_of(many) == "gpus");
    CHECK(find_in(many, "256") == "256");
  }
  SUBCASE("a negative or huge count") {
    CHECK(field_of(validate(ConfigBuilder().count(-1)).value_or("")) == "count");
    CHECK(field_of(validate(ConfigBuilder().count(kMaxCount + 1)).value_or("")) == "count");
  }
  SUBCASE("a value table of the wrong shape") {
    Config config = ConfigBuilder().ranks(2).count(3).init(InitKind::values);
    config.init.values = numbers_of_reals({{1, 2, 3}});
    const std::string rows = validate(config).value_or("");
    CHECK(field_of(rows) == "init");
    CHECK(find_in(rows, "1 rows") == "1 rows");
    config.init.values = numbers_of_reals({{1, 2, 3}, {4, 5}});
    const std::string row = validate(config).value_or("");
    CHECK(field_of(row) == "init");
    CHECK(find_in(row, "row 1") == "row 1");
  }
}

TEST_CASE("Parsers name the flag and list the accepted values") {
  const std::string op = input_error([] { parse_op("allsum", "--op"); });
  CHECK(field_of(op) == "--op");
  CHECK(find_in(op, "allreduce") == "allreduce");
  const std::string dtype = input_error([] { parse_dtype_or_throw("f8", "--dtype"); });
  CHECK(field_of(dtype) == "--dtype");
  CHECK(find_in(dtype, "bf16") == "bf16");
  CHECK(field_of(input_error([] { parse_reduce_or_throw("mean", "--reduce"); })) == "--reduce");
  CHECK(field_of(input_error([] { parse_order("ring", "--order"); })) == "--order");
  CHECK(field_of(input_error([] { parse_algorithm("spiral", "--algo"); })) == "--algo");
  CHECK(field_of(input_error([] { parse_backend_choice("gpu", "--backend"); })) == "--backend");
  CHECK(field_of(input_error([] { parse_init("random:x", "--init"); })) == "--init");
  CHECK(field_of(input_error([] { parse_init("random:", "--init"); })) == "--init");
  CHECK(field_of(input_error([] { parse_init("file:", "--init"); })) == "--init");
  CHECK(field_of(input_error([] { parse_init("zeros", "--init"); })) == "--init");
}

TEST_CASE("Parsers accept every documented spelling") {
  CHECK(parse_op("all-reduce") == Op::allreduce);
  CHECK(parse_op("reduce_scatter") == Op::reducescatter);
  CHECK(parse_op("allgather") == Op::allgather);
  CHECK(parse_dtype_or_throw("bfloat16") == DType::bf16);
  CHECK(parse_reduce_or_throw("avg") == ReduceOp::avg);
  CHECK(parse_order("nccl") == Order::nccl);
  CHECK(parse_init("random:42").random_seed == 42);
  CHECK(parse_init("random:42").spec() == "random:42");
  CHECK(parse_init("file:in.json").path == "in.json");
  CHECK(parse_init("index").kind == InitKind::index);
}

TEST_CASE("A session refuses an invalid config with the field's name") {
  const Config config = ConfigBuilder().ranks(300);
  CHECK(field_of(input_error([&] { Session session(config, make_cpu_backend(1)); })) == "gpus");
}

// A scratch file that removes itself.
struct TemporaryFile {
  std::filesystem::path path;
  explicit TemporaryFile(const std::string& contents) {
    static int serial = 0;
    path = std::filesystem::temp_directory_path() /
           ("ringviz_core_test_" + std::to_string(::getpid()) + "_" + std::to_string(serial++) + ".json");
    std::ofstream(path) << contents;
  }
  ~TemporaryFile() { std::filesystem::remove(path); }
};

TEST_CASE("An input file's problems are reported with the file and the position") {
  Config config = ConfigBuilder().ranks(2).count(2).init(InitKind::file);

  SUBCASE("a value that is not a number") {
    TemporaryFile file(R"([[1, 2], [3, "x"]])");
    config.init.path = file.path.string();
    const std::string message = input_error([&] { make_initial_state(config); });
    CHECK(find_in(message, file.path.string()) == file.path.string());
    CHECK(find_in(message, "[1][1]") == "[1][1]");
  }
  SUBCASE("a row of the wrong length") {
    TemporaryFile file(R"([[1, 2], [3]])");
    config.init.path = file.path.string();
    CHECK(find_in(input_error([&] { make_initial_state(config); }), "[1]") == "[1]");
  }
  SUBCASE("the wrong number of rows") {
    TemporaryFile file(R"([[1, 2]])");
    config.init.path = file.path.string();
    CHECK(find_in(input_error([&] { make_initial_state(config); }), "top level") == "top level");
  }
  SUBCASE("not JSON at all") {
    TemporaryFile file("[[1, 2], [3, 4]");
    config.init.path = file.path.string();
    CHECK(find_in(input_error([&] { make_initial_state(config); }), "not valid JSON") == "not valid JSON");
  }
  SUBCASE("a file that does not exist") {
    config.init.path = "/nonexistent/ringviz/inputs.json";
    CHECK(find_in(input_error([&] { make_initial_state(config); }), "cannot be opened") == "cannot be opened");
  }
  SUBCASE("a good file, with the spelled-out specials") {
    TemporaryFile file(R"([[1.5, "inf"], [-2, "nan"]])");
    config.init.path = file.path.string();
    const BufferState state = make_initial_state(config);
    CHECK(read_element(state, 0, 0).real == 1.5);
    CHECK(read_element(state, 0, 1).real == std::numeric_limits<double>::infinity());
    CHECK(read_element(state, 1, 0).real == -2);
    CHECK(std::isnan(read_element(state, 1, 1).real));
  }
}

TEST_CASE("A config whose buffers cannot fit in memory is refused before anything is allocated") {
  // 2^40 elements on 256 GPUs: petabytes
  const Config huge = ConfigBuilder().ranks(kMaxRanks).count(kMaxCount).dtype(DType::f64);
  REQUIRE(working_set_bytes(huge) > available_host_memory_bytes());
  const std::string message = input_error([&] { check_fits_in_memory(huge); });
  CHECK(field_of(message) == "count");
  CHECK(find_in(message, "--count") == "--count");

  const Config small = ConfigBuilder().ranks(4).count(1024).dtype(DType::f64);
  CHECK(input_error([&] { check_fits_in_memory(small); }) == "(no error)");
}

}  // namespace
}  // namespace ringviz
