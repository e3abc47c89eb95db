// Bad input exits with code 2 and one line on stderr that names the flag or the file position,
// before anything is allocated or printed on stdout.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "run_ringviz.h"

using ringviz::test::lines_of;
using ringviz::test::run_ringviz;
using ringviz::test::RunResult;
using ringviz::test::TempDir;

namespace {

RunResult trace(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), "trace");
  return run_ringviz(arguments);
}

// Every rejection looks the same to a script: exit 2, nothing on stdout, one stderr line.
void check_rejected(const RunResult& run, const std::string& named) {
  INFO("stderr: " << run.err);
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  CHECK(lines_of(run.err).size() == 1);
  CHECK(!run.err.empty());
  CHECK(run.err.back() == '\n');
  CHECK(run.err.find(named) != std::string::npos);
}

}  // namespace

TEST_CASE("zero GPUs is refused, naming --gpus") { check_rejected(trace({"--gpus", "0"}), "--gpus"); }

TEST_CASE("257 GPUs is refused, naming --gpus") { check_rejected(trace({"--gpus", "257"}), "--gpus"); }

TEST_CASE("a negative count is refused, naming --count") {
  check_rejected(trace({"--count", "-1"}), "--count");
}

TEST_CASE("a count that is not a number is refused, naming --count") {
  check_rejected(trace({"--count", "abc"}), "--count");
}

TEST_CASE("a count whose buffers cannot fit in memory is refused before anything is allocated") {
  // 10^12 f32 elements on 256 GPUs: a petabyte. Reaching the allocator would take the
  // machine down; the refusal has to come from the up-front size check.
  check_rejected(trace({"--count", "1000000000000", "--gpus", "256"}), "--count");
}

TEST_CASE("an unknown --op is refused, naming the flag") { check_rejected(trace({"--op", "allscatter"}), "--op"); }

TEST_CASE("an unknown --dtype is refused, naming the flag") { check_rejected(trace({"--dtype", "f8"}), "--dtype"); }

TEST_CASE("an unknown --order is refused, naming the flag") {
  check_rejected(trace({"--order", "random"}), "--order");
}

TEST_CASE("an unknown --reduce is refused, naming the flag") {
  check_rejected(trace({"--reduce", "xor"}), "--reduce");
}

TEST_CASE("an unknown --format is refused, naming the flag") {
  check_rejected(trace({"--format", "yaml"}), "--format");
}

TEST_CASE("an unknown --lang is refused, naming the flag") { check_rejected(trace({"--lang", "fr"}), "--lang"); }

TEST_CASE("an unknown --init is refused, naming the flag") {
  check_rejected(trace({"--init", "ones"}), "--init");
}

TEST_CASE("an option ringviz does not have is refused in one line") {
  check_rejected(trace({"--colour"}), "--colour");
}

TEST_CASE("an option missing its value is refused in one line") { check_rejected(trace({"--gpus"}), "--gpus"); }

TEST_CASE("a flag given twice is refused, saying how often it was given") {
  const RunResult run = trace({"--gpus", "4", "--gpus", "8"});
  check_rejected(run, "--gpus: given 2 times; give it once");
}

TEST_CASE("a second --bench-gpus is refused rather than extending the list") {
  const RunResult run = run_ringviz({"--bench-gpus", "4", "--bench-gpus", "8"});
  // A build without the GUI has no --bench-gpus at all, and says so.
  check_rejected(run, run.err.find("unexpected argument") == std::string::npos ? "--bench-gpus: given 2 times" : "--bench-gpus");
}

TEST_CASE("a negative zero count of GPUs is out of range, not 'negative'") {
  const RunResult run = trace({"--gpus", "-0"});
  check_rejected(run, "--gpus: -0 is out of range (1 to 256)");
}

TEST_CASE("a learning rate that is zero as a float names --lr and quotes the value as typed") {
  const RunResult run = run_ringviz({"train", "--lr", "1e-320"});
  check_rejected(run, "--lr: 1e-320 is out of range");
}

TEST_CASE("training steps times GPUs beyond about a minute of work is refused, naming both flags") {
  const RunResult run = run_ringviz({"train", "--steps", "100000", "--gpus", "256", "--batch", "3"});
  check_rejected(run, "--steps");
  CHECK(run.err.find("--gpus") != std::string::npos);
}

TEST_CASE("a trace too large for memory names --count and says the sizes in a readable unit") {
  const RunResult run = trace({"--count", "1000000000000", "--gpus", "256"});
  check_rejected(run, "--count: ");
  CHECK(run.err.find("e+") == std::string::npos);
  CHECK(run.err.find(" PB of buffers") != std::string::npos);
}

TEST_CASE("an input file that does not exist is refused, naming the file") {
  TempDir dir;
  const std::string missing = (dir.path() / "missing.json").string();
  check_rejected(trace({"--init", "file:" + missing}), missing);
}

TEST_CASE("an input file that is not JSON is refused, naming the file, the line and the column") {
  TempDir dir;
  const std::string path = dir.write("broken.json", "[[1, 2], [3,");
  const RunResult run = trace({"--gpus", "2", "--count", "2", "--init", "file:" + path});
  check_rejected(run, path);
  CHECK(run.err.find(path + ":1:13: not valid JSON") != std::string::npos);
}

TEST_CASE("an input file with the wrong number of rows is refused, naming the top level") {
  TempDir dir;
  const std::string path = dir.write("rows.json", "[[1, 2], [3, 4], [5, 6]]");
  const RunResult run = trace({"--gpus", "2", "--count", "2", "--init", "file:" + path});
  check_rejected(run, path);
  CHECK(run.err.find("top level") != std::string::npos);
}

TEST_CASE("an input file with a row of the wrong length is refused, naming the row") {
  TempDir dir;
  const std::string path = dir.write("row.json", "[[1, 2], [3, 4, 5]]");
  const RunResult run = trace({"--gpus", "2", "--count", "2", "--init", "file:" + path});
  check_rejected(run, path);
  CHECK(run.err.find("[1]") != std::string::npos);
}

TEST_CASE("an input file with a string that is not a number is refused, naming the element") {
  TempDir dir;
  const std::string path = dir.write("string.json", R"([[1, 2], [3, "four"]])");
  const RunResult run = trace({"--gpus", "2", "--count", "2", "--init", "file:" + path});
  check_rejected(run, path);
  CHECK(run.err.find("[1][1]") != std::string::npos);
}

// ulimit -v of 1 GiB: a machine with plenty of free memory still refuses the allocation, so the
// size check has to count the process's own limit, not only MemAvailable.
constexpr std::uint64_t kOneGiBInKiB = std::uint64_t{1} << 20;

TEST_CASE("a bench larger than the process's address-space limit is refused up front, naming ulimit -v" *
          doctest::skip(ringviz::test::kSanitizedBuild)) {
  const RunResult run = ringviz::test::run_ringviz_with_address_limit(
      kOneGiBInKiB, {"bench", "--backend", "cpu", "--gpus", "256", "-b", "16M", "-e", "16M"});
  check_rejected(run, "--maxbytes");
  CHECK(run.err.find("ulimit -v") != std::string::npos);
}

TEST_CASE("a trace larger than the process's address-space limit is refused up front, naming ulimit -v" *
          doctest::skip(ringviz::test::kSanitizedBuild)) {
  const RunResult run = ringviz::test::run_ringviz_with_address_limit(
      kOneGiBInKiB, {"trace", "--backend", "cpu", "--gpus", "256", "--count", "1M"});
  check_rejected(run, "--count");
  CHECK(run.err.find("ulimit -v") != std::string::npos);
}

// Every value flag of every subcommand, fed what a slip of the keyboard or a script gives: each
// is refused in one line that names the flag and the value it got (exit 2), never converted
// silently nor run for ever.
TEST_CASE("empty, non-finite, negative, huge and half-numeric values are refused for every value flag") {
  struct Case {
    std::vector<std::string> arguments;
    std::string named;
    std::string shown;  // how the message quotes the value, when not as the last argument
  };
  const std::vector<std::string> record = {"record", "--out", "never-written/"};
  const auto with = [](std::vector<std::string> base, std::vector<std::string> more) {
    base.insert(base.end(), more.begin(), more.end());
    return base;
  };
  const std::vector<Case> cases = {
      {{"trace", "--gpus", ""}, "--gpus"},
      {{"trace", "--gpus", "4x"}, "--gpus"},
      {{"trace", "--count", "nan"}, "--count"},
      {{"trace", "--count", "1e300"}, "--count"},
      {{"trace", "--gpus", "256", "--count", "1M", "--format", "json"}, "--count", "1048576"},
      {{"bench", "--iters", "2000000000"}, "--iters"},
      {{"bench", "--iters", "-1"}, "--iters"},
      {{"bench", "--iters", ""}, "--iters"},
      {{"bench", "--iters", "4x"}, "--iters"},
      {{"bench", "--warmup_iters", "nan"}, "--warmup_iters"},
      {{"bench", "--warmup_iters", "100000"}, "--warmup_iters"},
      {{"bench", "--minbytes", ""}, "--minbytes"},
      {{"bench", "--maxbytes", "inf"}, "--maxbytes"},
      {{"bench", "--stepfactor", "0"}, "--stepfactor"},
      {{"bench", "-b", "1", "-e", "64", "-f", "8", "--dtype", "f64"}, "--minbytes", "8 bytes"},
      {{"bench", "-b", "4", "-e", "64", "--op", "allgather", "--gpus", "4"}, "--minbytes", "16 bytes"},
      {{"compare", "--alpha-us", "nan"}, "--alpha-us"},
      {{"compare", "--alpha-us", "0"}, "--alpha-us"},
      {{"compare", "--bandwidth-gbs", ""}, "--bandwidth-gbs"},
      {{"compare", "--bandwidth-gbs", "inf"}, "--bandwidth-gbs"},
      {{"compare", "--bandwidth-gbs", "1e300"}, "--bandwidth-gbs"},
      {{"compare", "--gamma-ps", "-1"}, "--gamma-ps"},
      {{"compare", "--gamma-ps", "4x"}, "--gamma-ps"},
      {{"compare", "--count", "-1"}, "--count"},
      {{"memory", "--params", ""}, "--params"},
      {{"memory", "--gpus", "0"}, "--gpus"},
      {{"memory", "--gpu-memory", "nan"}, "--gpu-memory"},
      {{"memory", "--bucket-mb", "inf"}, "--bucket-mb"},
      {{"memory", "--gpu-memory", "0x10"}, "--gpu-memory"},
      {{"memory", "--gpu-memory", " 4"}, "--gpu-memory"},
      {{"memory", "--gpu-memory", "1e-300"}, "--gpu-memory"},
      {{"memory", "--bucket-mb", "0x10"}, "--bucket-mb"},
      {{"train", "--steps", "0"}, "--steps"},
      {{"train", "--steps", "100000", "--batch", "65536", "--gpus", "256"}, "--steps", "100000"},
      {{"train", "--batch", "nan"}, "--batch"},
      {{"train", "--lr", "inf"}, "--lr"},
      {{"train", "--lr", "1e-320"}, "--lr"},
      {{"train", "--lr", " 0.1"}, "--lr"},
      {{"train", "--gpus", "-0"}, "--gpus"},
      {{"train", "--steps", "100000", "--gpus", "256", "--batch", "3"}, "--gpus", "100000"},
      {{"train", "--seed", "-1"}, "--seed"},
      {with(record, {"--fps", "0"}), "--fps"},
      {with(record, {"--fps", "nan"}), "--fps"},
      {with(record, {"--seconds", ""}), "--seconds"},
      {with(record, {"--seconds", "-1"}), "--seconds"},
      {with(record, {"--seconds", "inf"}), "--seconds"},
      {with(record, {"--seconds", "3600", "--fps", "240"}), "--seconds", "240"},
      {with(record, {"--from", "nan"}), "--from"},
      {with(record, {"--from", "4x"}), "--from"},
      {with(record, {"--ui-scale", "0.1"}), "--ui-scale"},
      {with(record, {"--ui-scale", ""}), "--ui-scale"},
      {with(record, {"--lesson", ""}), "--lesson"},
      {with(record, {"--from", "100"}), "--from"},
      {with(record, {"--lesson", "default", "--from", "1000"}), "--from"},
      {{"--ui-scale", "nan"}, "--ui-scale"},
      {{"--ui-scale", "0.1"}, "--ui-scale"},
      {{"--present-scale", "0"}, "--present-scale"},
      {{"--present-scale", "nan"}, "--present-scale"},
      {{"--round", ""}, "--round"},
      {{"--size", ""}, "--size"},
      {{"--size", " 4x4"}, "--size"},
      {{"--size", "4x 4"}, "--size"},
      {{"--size", "4x4 "}, "--size"},
      {{"--size", "4X4"}, "--size"},
      {{"--resize", "4x 4"}, "--resize"},
      {with(record, {"--size", "4X4"}), "--size"},
      {{"--round", " 2"}, "--round"},
      {{"--round", "0x2"}, "--round"},
      {{"--bench-frames", "-1"}, "--bench-frames"},
      {{"--bench-frames", "1e300"}, "--bench-frames"},
      {{"--bench-gpus", "0"}, "--bench-gpus"},
      {{"--bench-gpus", "4x"}, "--bench-gpus"},
  };
  for (const Case& bad : cases) {
    std::string typed;
    for (const std::string& argument : bad.arguments) typed += " '" + argument + "'";
    INFO("ringviz" << typed);
    const RunResult run = run_ringviz(bad.arguments);
    // Without the GUI, record checks its flags but cannot look at a lesson or a collective's length.
    if (run.err.find("RINGVIZ_GUI=OFF") != std::string::npos) continue;
    check_rejected(run, bad.named);
    // The value it got is quoted back, so that an empty one shows as ''.
    const std::string& value = bad.shown.empty() ? bad.arguments.back() : bad.shown;
    if (run.err.find("unexpected argument") == std::string::npos)  // a build without the GUI lacks its flags
      CHECK(run.err.find(value.empty() ? "''" : value) != std::string::npos);
  }
}
