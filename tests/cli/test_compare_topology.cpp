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

TEST_CASE("compare prints what NCCL would do above the table, and --nccl-algo and --protocol pin it") {
  const RunResult chosen = run_ringviz({"compare", "--topology", "nvswitch:8", "--count", "256M", "--format", "json"});
  REQUIRE(chosen.exit_code == 0);
  const auto document = nlohmann::json::parse(chosen.out);
  CHECK(document["nccl"]["algorithm"] == "NVLS");
  CHECK(document["nccl"]["protocol"] == "SIMPLE");
  CHECK(document["nccl"]["sweep"].size() == document["sweep"]["bytes"].size());
  CHECK(document["nccl"]["sweep"][0]["protocol"] == "LL");  // 1 KiB: latency-bound

  const RunResult pinned =
      run_ringviz({"compare", "--topology", "nvswitch:8", "--count", "256M", "--nccl-algo", "ring", "--protocol", "LL128"});
  REQUIRE(pinned.exit_code == 0);
  const std::size_t line = pinned.out.find("what NCCL would do, as pinned: RING/LL128 on 12 channels");
  CHECK(line != std::string::npos);
  CHECK(line < pinned.out.find("algorithm "));  // above the table of ringviz's algorithms
}

TEST_CASE("compare refuses an unknown or impossible NCCL pin in one line with exit 2") {
  for (const auto& arguments : {std::vector<std::string>{"compare", "--protocol", "LL256"},
                                std::vector<std::string>{"compare", "--nccl-algo", "collnet"},
                                std::vector<std::string>{"compare", "--topology", "ring:8", "--nccl-algo", "nvls"},
                                std::vector<std::string>{"compare", "--topology", "pcie:8", "--protocol", "LL128"},
                                std::vector<std::string>{"compare", "--nccl-algo", "nvls", "--protocol", "LL"},
                                std::vector<std::string>{"compare", "--protocol", ""}}) {
    const RunResult run = run_ringviz(arguments);
    CHECK(run.exit_code == 2);
    CHECK(run.err.rfind("ringviz: --", 0) == 0);
    CHECK(run.err.find('\n') == run.err.size() - 1);
    CHECK(run.out.empty());
  }
}
