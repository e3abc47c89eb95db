// `ringviz job import` and `ringviz job show` as a user runs them, on the real profiler traces
// in tests/data/kineto.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/cli/run_ringviz.h"

namespace ringviz::test {

namespace {

std::string fixture(const char* name) { return std::string(RINGVIZ_KINETO_DIR) + "/" + name; }

}  // namespace

TEST_CASE("job import writes a job document and job show lists every collective") {
  TempDir dir;
  const std::string out = dir.file("job.json");
  const RunResult imported = run_ringviz({"job", "import", fixture("nccl-2gpu-rank0.json.gz"), "--out", out});
  REQUIRE(imported.exit_code == 0);
  CHECK(imported.err.empty());
  CHECK(imported.out.find("21 collectives of 1 traced ranks (of 2)") != std::string::npos);
  CHECK(imported.out.find("MB/s") != std::string::npos);
  CHECK(imported.out.find("ranks 1 were not traced") != std::string::npos);

  const RunResult shown = run_ringviz({"job", "show", out});
  REQUIRE(shown.exit_code == 0);
  int allreduce_rows = 0;
  for (const std::string& line : lines_of(shown.out))
    if (line.find("AllReduce") != std::string::npos && line.find(" RING ") != std::string::npos &&
        line.find(" LL ") != std::string::npos && line[0] != '#')
      ++allreduce_rows;
  CHECK(allreduce_rows == 15);

  const RunResult json = run_ringviz({"job", "show", out, "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto doc = nlohmann::json::parse(json.out);
  REQUIRE(doc["collectives"].size() == 21);
  for (const auto& row : doc["collectives"]) {
    CHECK(row["rank"] == 0);
    CHECK(row["group"] == "0");
    CHECK(row.contains("busbw"));
    CHECK(row["derived"].empty());
    // The NCCL model's time beside the measured one, for the recorded ring/LL on the assumed
    // NVLink 3 (docs/nccl-model.md): below the measurement, whose kernels shared the GPU.
    REQUIRE(row["predicted_us"].is_number());
    CHECK(row["predicted_us"].get<double>() > 0);
    if (row["op"] == "allreduce") CHECK(row["predicted_us"].get<double>() < row["duration_us"].get<double>());
  }
  CHECK(doc["predicted_on"].get<std::string>().find("NVLink 3") != std::string::npos);
  CHECK(shown.out.find("pred(us)") != std::string::npos);
}

TEST_CASE("job import refuses what is not one job with one line, exit 2, and writes nothing") {
  TempDir dir;
  const std::string out = dir.file("job.json");
  SUBCASE("not a trace") {
    const std::string bad = dir.write("bad.json", "{\"hello\": [1, 2, 3]}");
    check_refused(run_ringviz({"job", "import", bad, "--out", out}), "no \"traceEvents\"");
  }
  SUBCASE("syntax error: file:line:col") {
    const std::string bad = dir.write("bad.json", "{\"traceEvents\": [\n{\"ph\": }\n]}");
    check_refused(run_ringviz({"job", "import", bad, "--out", out}), "bad.json:2:");
  }
  SUBCASE("a missing input") {
    check_refused(run_ringviz({"job", "import", dir.file("none.json"), "--out", out}), "no such file or folder");
  }
  SUBCASE("an output folder that does not exist") {
    check_refused(run_ringviz({"job", "import", fixture("nccl-1gpu-rank0.json.gz"), "--out", dir.file("no/job.json")}),
                  "--out");
  }
  SUBCASE("a 2 GB file (sparse: it takes no disk)") {
    const std::string big = dir.file("big.json");
    { std::ofstream(big, std::ios::binary); }
    std::filesystem::resize_file(big, std::uintmax_t{2} << 30);
    check_refused(run_ringviz({"job", "import", big, "--out", out}), "2048 MiB is more than the importer reads");
  }
  SUBCASE("a truncated gzip") {
    const std::string cut = dir.file("cut.json.gz");
    std::filesystem::copy_file(fixture("nccl-1gpu-rank0.json.gz"), cut);
    std::filesystem::resize_file(cut, 300000);
    check_refused(run_ringviz({"job", "import", cut, "--out", out}), "gzip data ends early");
  }
  SUBCASE("a job document that is not one") {
    check_refused(run_ringviz({"job", "show", dir.write("x.json", "{\"format\": \"ringviz.job/9\"}")}),
                  "is not a job document");
  }
  CHECK_FALSE(std::filesystem::exists(out));
}

}  // namespace ringviz::test
