// ringviz compare on a topology: its JSON, its refusals, and --fit on a recorded capture.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "run_ringviz.h"

using ringviz::test::RunResult;
using ringviz::test::run_ringviz;

TEST_CASE("compare --topology ring:8 --format json lists every link with bandwidth and latency and ranks the ring first at 256 MiB") {
  const RunResult run = run_ringviz({"compare", "--topology", "ring:8", "--count", "64M", "--format", "json"});
  REQUIRE(run.exit_code == 0);
  const auto document = nlohmann::json::parse(run.out);
  CHECK(document["config"]["ranks"] == 8);
  CHECK(document["topology"]["links"].size() == 16);
  CHECK(document["topology"]["links"][0]["bytes_per_second"] == 225e9);
  CHECK(document["topology"]["links"][0]["latency_seconds"] == 0.1e-6);
  double ring = 0, rhd = 0;
  for (const auto& algorithm : document["algorithms"]) {
    if (algorithm["algorithm"] == "ring") ring = algorithm["seconds"];
    if (algorithm["algorithm"] == "rhd") rhd = algorithm["seconds"];
    CHECK(algorithm["round_end_seconds"].size() == algorithm["rounds"]);
  }
  CHECK(ring < rhd);
}

TEST_CASE("compare refuses a topology with link overrides or another GPU count, in one line with exit 2") {
  for (const auto& arguments : {std::vector<std::string>{"compare", "--topology", "ring:8", "--alpha-us", "2"},
                                std::vector<std::string>{"compare", "--topology", "ring:8", "--gpus", "4"},
                                std::vector<std::string>{"compare", "--topology", "torus:8"},
                                std::vector<std::string>{"compare", "--slices", "0"}}) {
    const RunResult run = run_ringviz(arguments);
    CHECK(run.exit_code == 2);
    CHECK(run.err.rfind("ringviz: ", 0) == 0);
    CHECK(run.err.find('\n') == run.err.size() - 1);
  }
}

TEST_CASE("compare --fit on a recorded capture prints the fitted class and every round measured and predicted") {
  const RunResult run = run_ringviz(
      {"compare", "--fit", std::string(RINGVIZ_TRACE_CORPUS_DIR) + "/../../../assets/captures/straggler-4gpus.json", "--format", "json"});
  REQUIRE(run.exit_code == 0);
  const auto document = nlohmann::json::parse(run.out);
  CHECK(document["classes"].size() == 1);
  CHECK(document["classes"][0]["class"] == "same host");
  CHECK(document["rounds"].size() == 6);
  for (const auto& round : document["rounds"]) CHECK(round["measured_seconds"] > 0.002);
}
