// Values print exactly: integers in full, floats as the shortest decimal of their own type,
// NaN and the infinities as strings in JSON.
#include <doctest/doctest.h>

#include "json_trace.h"

using ringviz::test::json_trace;
using ringviz::test::run_ringviz;
using ringviz::test::TempDir;
using Json = nlohmann::json;

TEST_CASE("f32 values print as their shortest decimal: 0.1 stays 0.1 and 1e-8 stays 1e-08") {
  TempDir dir;
  const std::string inputs = dir.write("inputs.json", "[[0.1, 1e-8, 6], [2.5, -3, 0]]");
  const std::vector<std::string> arguments = {"trace", "--op", "allgather", "--gpus", "2", "--count", "3",
                                              "--init", "file:" + inputs};
  for (const char* format : {"table", "markdown", "json"}) {
    CAPTURE(format);
    std::vector<std::string> with_format = arguments;
    with_format.insert(with_format.end(), {"--format", format});
    const auto run = run_ringviz(with_format);
    REQUIRE(run.exit_code == 0);
    const char* expected = std::string(format) == "json" ? "[0.1, 1e-08, 6, 2.5, -3, 0]"
                                                         : "GPU 0: [0.1, 1e-08, 6, 2.5, -3, 0]";
    CHECK_MESSAGE(run.out.find(expected) != std::string::npos, run.out);
  }
}

TEST_CASE("NaN and infinities are the strings nan, inf and -inf in JSON") {
  TempDir dir;
  const std::string inputs = dir.write("inputs.json", R"([["nan", "inf", 1], [1, 2, "-inf"]])");
  const Json trace = json_trace({"--gpus", "2", "--count", "3", "--init", "file:" + inputs});
  CHECK(trace["outputs"][0] == Json::parse(R"(["nan", "inf", "-inf"])"));
}

TEST_CASE("64-bit integers survive the JSON trace exactly, even past 2^53") {
  TempDir dir;
  const std::string inputs = dir.write("inputs.json", "[[9007199254740993], [-9007199254740993]]");
  const auto run = run_ringviz({"trace", "--op", "allgather", "--gpus", "2", "--count", "1", "--dtype", "i64",
                                "--init", "file:" + inputs, "--format", "json"});
  REQUIRE(run.exit_code == 0);
  const Json trace = Json::parse(run.out);
  CHECK(trace["outputs"][1][0].get<std::int64_t>() == 9007199254740993);
  CHECK(trace["outputs"][1][1].get<std::int64_t>() == -9007199254740993);
}

TEST_CASE("f16 and bf16 values print as the shortest decimal of the float they widen to") {
  TempDir dir;
  const std::string inputs = dir.write("inputs.json", "[[0.1], [0.5]]");
  SUBCASE("f16 stores 0.1 as 0.0999755859375") {
    const Json trace = json_trace({"--op", "allgather", "--gpus", "2", "--count", "1", "--dtype", "f16",
                                   "--init", "file:" + inputs});
    CHECK(trace["outputs"][0] == Json::parse("[0.099975586, 0.5]"));
  }
  SUBCASE("bf16 stores 0.1 as 0.10009765625") {
    const Json trace = json_trace({"--op", "allgather", "--gpus", "2", "--count", "1", "--dtype", "bf16",
                                   "--init", "file:" + inputs});
    CHECK(trace["outputs"][0] == Json::parse("[0.100097656, 0.5]"));
  }
}

TEST_CASE("a large count keeps the table readable by eliding the middle of each output") {
  const auto run = run_ringviz({"trace", "--gpus", "2", "--count", "100000", "--init", "index"});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("GPU 0: [0, 2, 4, 6, 8, 10, 12, 14, …, 199992, 199994, 199996, 199998] (100000 values)") !=
        std::string::npos);
  CHECK(run.out.size() < 20000);
}
