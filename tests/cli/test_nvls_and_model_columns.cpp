// `--algo nvls` on the command line (only on a topology with an NVSwitch that reduces), and the
// NCCL model's prediction printed beside bench's measured figures: the same numbers `compare`
// reports as "what NCCL would do", for the machine --topology names (nvswitch:N without it).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "run_ringviz.h"

using ringviz::test::check_refused;
using ringviz::test::lines_of;
using ringviz::test::run_ringviz;
using ringviz::test::RunResult;

namespace {

// compare's "what NCCL would do" for an AllReduce of `count` f32 on `topology`.
nlohmann::json nccl_would(const std::string& topology, int gpus, const std::string& count) {
  const RunResult run = run_ringviz({"compare", "--op", "allreduce", "--gpus", std::to_string(gpus), "--count", count,
                                     "--topology", topology, "--format", "json"});
  REQUIRE(run.exit_code == 0);
  return nlohmann::json::parse(run.out)["nccl"];
}

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

// The row of bench's table for `size` bytes, split into its columns.
std::vector<std::string> bench_row(const std::string& out, long long size) {
  for (const std::string& line : lines_of(out)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::vector<std::string> columns;
    for (std::string word; words >> word;) columns.push_back(word);
    if (!columns.empty() && columns[0] == std::to_string(size)) return columns;
  }
  return {};
}

}  // namespace

TEST_CASE("--algo nvls runs only on a topology with an NVSwitch that reduces, and says how to get one") {
  check_refused(run_ringviz({"trace", "--algo", "nvls"}), "--algo nvls: the NVSwitch does the reduction");
  check_refused(run_ringviz({"trace", "--algo", "nvls"}), "add --topology nvswitch:4");
  check_refused(run_ringviz({"trace", "--algo", "nvls", "--topology", "ring:4"}), "has no NVSwitch that reduces");
  check_refused(run_ringviz({"trace", "--algo", "nvls", "--topology", "pcie:4"}), "give --topology nvswitch:4");
  check_refused(run_ringviz({"trace", "--algo", "nvls", "--topology", "nvswitch:8"}), "--topology: 'nvswitch:8' has 8 GPUs");
  check_refused(run_ringviz({"trace", "--algo", "nvls", "--op", "allgather", "--topology", "nvswitch:4"}),
                "--algo nvls: supports allreduce only");
  check_refused(run_ringviz({"bench", "--algo", "nvls", "--backend", "cpu"}), "add --topology nvswitch:4");
}

TEST_CASE("trace --algo nvls on nvswitch:4 runs both rounds through the switch and checks out") {
  const RunResult run = run_ringviz({"trace", "--algo", "nvls", "--topology", "nvswitch:4", "--count", "8"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("NVLS (reduction in the NVSwitch)") != std::string::npos);
  // The note after the byte table: M each way through the switch, against the ring's 2(N-1)/N x M.
  CHECK(run.out.find("each GPU sends 32 B and receives 32 B") != std::string::npos);
  CHECK(run.out.find("2(N-1)/N x M = 48 B") != std::string::npos);
  const RunResult zh =
      run_ringviz({"trace", "--algo", "nvls", "--topology", "nvswitch:4", "--count", "8", "--lang", "zh"});
  REQUIRE(zh.exit_code == 0);
  CHECK(zh.out.find("NVLS（在 NVSwitch 内归约）") != std::string::npos);
  CHECK(zh.out.find("组播") != std::string::npos);
}

TEST_CASE("bench prints the NCCL model's time, busbw and pick beside every row, the numbers compare reports") {
  // 64 f32 on 2 GPUs: a 256-byte AllReduce, nccl-tests' size.
  const RunResult run =
      run_ringviz({"bench", "--gpus", "2", "-b", "256", "-e", "1K", "-f", "4", "-w", "0", "-i", "1", "--backend", "cpu"});
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("# model: what NCCL would do on nvswitch:2 (2 GPUs on one NVSwitch (NVLink 4)") != std::string::npos);
  CHECK(run.out.find("model time  model bw  NCCL pick") != std::string::npos);
  for (const std::pair<long long, const char*> sample : {std::pair{256LL, "64"}, std::pair{1024LL, "256"}}) {
    // Plain names: clang (the sanitizer build) cannot capture a structured binding in CAPTURE.
    const long long size = sample.first;
    const char* const count = sample.second;
    CAPTURE(size);
    const std::vector<std::string> row = bench_row(run.out, size);
    REQUIRE(row.size() == 14);
    const nlohmann::json nccl = nccl_would("nvswitch:2", 2, count);
    CHECK(row[11] == fixed(nccl["seconds"].get<double>() * 1e6, 1));
    CHECK(row[12] == fixed(nccl["busbw_bytes_per_second"].get<double>() / 1e9, 2));
    CHECK(row[13] == nccl["algorithm"].get<std::string>() + "/" + nccl["protocol"].get<std::string>());
  }
}

TEST_CASE("bench --topology picks the machine the model's columns assume") {
  const RunResult run = run_ringviz({"bench", "--gpus", "4", "-b", "64K", "-e", "64K", "-w", "0", "-i", "1",
                                     "--backend", "cpu", "--topology", "pcie:4"});
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("# model: what NCCL would do on pcie:4 (") != std::string::npos);
  const std::vector<std::string> row = bench_row(run.out, 65536);
  REQUIRE(row.size() == 14);
  const nlohmann::json nccl = nccl_would("pcie:4", 4, "16K");
  CHECK(row[11] == fixed(nccl["seconds"].get<double>() * 1e6, 1));
  // NCCL enables LL128 only over NVLink: PCIe's pick is never LL128.
  CHECK(row[13].find("LL128") == std::string::npos);
  const RunResult zh = run_ringviz({"bench", "--gpus", "4", "-b", "64K", "-e", "64K", "-w", "0", "-i", "1",
                                    "--backend", "cpu", "--topology", "pcie:4", "--lang", "zh"});
  REQUIRE(zh.exit_code == 0);
  CHECK(zh.out.find("# 模型：NCCL 在 pcie:4") != std::string::npos);
  CHECK(zh.out.find("模型时间") != std::string::npos);
  check_refused(run_ringviz({"bench", "--gpus", "4", "--backend", "cpu", "--topology", "ring:8"}),
                "--topology: 'ring:8' has 8 GPUs but --gpus is 4");
}

TEST_CASE("bench --algo nvls on nvswitch:4 runs the switch's schedule with no wrong element") {
  const RunResult run = run_ringviz({"bench", "--algo", "nvls", "--topology", "nvswitch:4", "-b", "1K", "-e", "4K",
                                     "-w", "0", "-i", "1", "--backend", "cpu"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("# Out of bounds values : 0 OK") != std::string::npos);
}
