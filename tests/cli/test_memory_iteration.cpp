// `ringviz memory` with a transformer: the whole iteration's fields in JSON, the table's
// formulas and caveat, and bad input refused in one line naming the flag.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "run_ringviz.h"

using ringviz::test::lines_of;
using ringviz::test::run_ringviz;
using ringviz::test::RunResult;

namespace {

std::vector<std::string> memory(std::vector<std::string> more) {
  more.insert(more.begin(), "memory");
  return more;
}

void check_refused(const std::vector<std::string>& arguments, const std::string& flag) {
  const RunResult run = run_ringviz(memory(arguments));
  INFO("stderr: " << run.err);
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  CHECK(lines_of(run.err).size() == 1);
  CHECK(run.err.rfind("ringviz: " + flag, 0) == 0);
}

}  // namespace

TEST_CASE("memory --format json gives each GPU's iteration bytes and the seconds with their parts") {
  const RunResult run = run_ringviz(memory({"--model", "llama3-8b", "--gpus", "8", "--strategy", "zero3",
                                            "--recompute", "all", "--format", "json"}));
  REQUIRE(run.exit_code == 0);
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  CHECK(doc["schema"] == "ringviz.memory.iteration/1");
  CHECK(doc["model"]["parameters"] == 8'030'261'248);
  REQUIRE(doc["estimates"].size() == 3);
  for (const nlohmann::json& e : doc["estimates"]) {
    for (const char* field : {"parameters", "gradients", "optimizer_states", "activations", "logits", "buffers", "peak"})
      CHECK(e["per_gpu"][field].is_number_integer());
    CHECK_FALSE(e["per_gpu"].contains("host"));
    for (const char* part : {"total", "compute", "recompute", "communication", "offload"})
      CHECK(e["iteration_seconds"][part].is_number());
  }
  // ZeRO-3 with no recomputation: 32 layers of 3254779904 bytes and the logits at the loss.
  CHECK(doc["estimates"][0]["per_gpu"]["activations"] == 32LL * 3'254'779'904LL);
  CHECK(doc["estimates"][0]["fits"] == false);
  CHECK(doc["estimates"][2]["fits"] == true);
}

TEST_CASE("memory with --offload optimizer reports host bytes per GPU and per machine") {
  const RunResult run = run_ringviz(memory({"--model", "llama2-7b", "--gpus", "8", "--strategy", "zero2",
                                            "--offload", "optimizer", "--format", "json"}));
  REQUIRE(run.exit_code == 0);
  const nlohmann::json e = nlohmann::json::parse(run.out)["estimates"][0];
  CHECK(e["per_gpu"]["host"] == 14LL * 842'301'952LL);  // 12 + 2 bytes of each parameter of the shard
  CHECK(e["per_gpu"]["optimizer_states"] == 0);
  CHECK(e["offload"]["host_per_machine"] == 8 * 14LL * 842'301'952LL);
}

TEST_CASE("the memory table spells out the formulas and says the 34 and 5 constants are an approximation") {
  const RunResult run = run_ringviz(memory({"--model", "gpt3-175b", "--seq", "2048", "--recompute", "selective",
                                            "--strategy", "zero3", "--gpus", "64"}));
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("s·b·h·(34 + 5·a·s/h)") != std::string::npos);
  CHECK(run.out.find("4·s·b·V") != std::string::npos);
  CHECK(run.out.find("The 34 and 5 constants come from a GPT block") != std::string::npos);
  CHECK(run.out.find("16Ψ/N") != std::string::npos);
  CHECK(run.out.find("an estimate") != std::string::npos);
}

TEST_CASE("memory --model custom takes its shape from --layers --hidden --heads --vocab --params") {
  const RunResult run = run_ringviz(memory({"--model", "custom", "--layers", "2", "--hidden", "64", "--heads", "4",
                                            "--vocab", "100", "--params", "120K", "--seq", "16", "--unit", "bytes",
                                            "--strategy", "ddp", "--format", "json"}));
  REQUIRE(run.exit_code == 0);
  const nlohmann::json e = nlohmann::json::parse(run.out)["estimates"][0];
  // 34·16·64 + 5·4·16² = 34816 + 5120 bytes a layer.
  CHECK(e["activation_bytes"]["full_layer"] == 39'936);
  CHECK(e["activation_bytes"]["logits"] == 4 * 16 * 100);
}

TEST_CASE("zero or negative sizes, 64-bit overflow and unknown presets are refused in one line naming the flag") {
  const std::vector<std::string> llama = {"--model", "llama2-7b"};
  const auto with = [](std::vector<std::string> base, std::vector<std::string> more) {
    base.insert(base.end(), more.begin(), more.end());
    return base;
  };
  check_refused({"--model", "llama9"}, "--model");
  check_refused(with(llama, {"--seq", "0"}), "--seq");
  check_refused(with(llama, {"--seq", "-4096"}), "--seq");
  check_refused(with(llama, {"--micro-batch", "0"}), "--micro-batch");
  check_refused(with(llama, {"--seq", "4000000000", "--micro-batch", "4000000000"}), "--seq");
  check_refused(with(llama, {"--recompute", "most"}), "--recompute");
  check_refused(with(llama, {"--offload", "gpu"}), "--offload");
  check_refused(with(llama, {"--accelerator", "tpu"}), "--accelerator");
  check_refused(with(llama, {"--utilisation", "0"}), "--utilisation");
  check_refused(with(llama, {"--link", "carrier-pigeon"}), "--link");
  check_refused(with(llama, {"--hidden", "4096"}), "--hidden");
  check_refused(with(llama, {"--params", "7B"}), "--params");
  check_refused({"--seq", "4096"}, "--model");
  check_refused({"--model", "custom", "--layers", "0", "--hidden", "64", "--heads", "4", "--vocab", "100",
                 "--params", "1M"},
                "--layers");
  check_refused({"--model", "custom", "--layers", "2", "--hidden", "64", "--heads", "4", "--params", "1M"}, "--vocab");
}

TEST_CASE("a tensor-parallel group that does not fit the GPUs or the heads, SP without TP and unknown modes exit 2 naming the flag") {
  const std::vector<std::string> llama = {"--model", "llama3-8b", "--gpus", "8"};
  const auto with = [](std::vector<std::string> base, std::vector<std::string> more) {
    base.insert(base.end(), more.begin(), more.end());
    return base;
  };
  check_refused(with(llama, {"--tp", "3"}), "--tp: 3 does not divide the GPUs (8)");
  check_refused(with(llama, {"--tp", "0"}), "--tp");
  check_refused(with(llama, {"--tp", "eight"}), "--tp");
  check_refused({"--model", "llama3-8b", "--gpus", "64", "--tp", "64"}, "--tp: 64 does not divide the attention heads (32)");
  check_refused({"--model", "llama3-8b", "--gpus", "16", "--tp", "16", "--block", "model"},
                "--tp: 16 does not divide the key/value heads (8)");
  check_refused(with(llama, {"--sp"}), "--sp");
  check_refused(with(llama, {"--attention", "sparse"}), "--attention");
  check_refused(with(llama, {"--block", "llama"}), "--block");
}

TEST_CASE("TP 8 with SP on llama3-8b: Korthikanti's TP+SP activations, a DP of 1 and the TP traffic in JSON") {
  const RunResult run = run_ringviz(memory({"--model", "llama3-8b", "--gpus", "8", "--tp", "8", "--sp", "--strategy",
                                            "ddp", "--format", "json"}));
  REQUIRE(run.exit_code == 0);
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  CHECK(doc["tp"] == 8);
  CHECK(doc["sp"] == true);
  CHECK(doc["attention"] == "eager");
  const nlohmann::json& e = doc["estimates"][0];
  CHECK(e["data_parallel"] == 1);
  // s·b·h/t·(34 + 5·a·s/h) = 16777216 / 8 · 194.
  CHECK(e["activation_bytes"]["full_layer"] == 406'847'488);
  CHECK(e["bytes_sent_per_gpu"]["tensor_parallel"] == 4LL * 58'720'256 * 32);
  CHECK(e["tensor_parallel"]["collectives"] == "4 all-gather + 4 reduce-scatter per layer");
  // FlashAttention in the table's header says what it keeps and rebuilds.
  const RunResult flash = run_ringviz(memory({"--model", "llama3-8b", "--gpus", "8", "--attention", "flash"}));
  REQUIRE(flash.exit_code == 0);
  CHECK(flash.out.find("FlashAttention keeps no s² scores") != std::string::npos);
}

TEST_CASE("memory --from-job refuses a job that measured nothing, a missing file and the iteration flags, naming --from-job") {
  const std::string unmeasured = std::string(RINGVIZ_SOURCE_LESSONS_DIR) + "/../jobs/ddp-gpt-gloo-4.json";
  check_refused({"--from-job", unmeasured}, "--from-job: " + unmeasured + " measured no memory");
  check_refused({"--from-job", "/nonexistent/job.json"}, "--from-job");
  check_refused({"--from-job", unmeasured, "--model", "llama3-8b"}, "--from-job");
}
