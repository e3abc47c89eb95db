// One parser per value (README, "Troubleshooting"): every way to give ringviz a value is held
// to the same rules. `--init values:` refuses what an init file refuses, an empty value is
// refused on every option of every command, a repeated flag or an option of another command
// is answered in our words, an output folder that takes no files is refused before any work,
// and integer reductions that wrap say so.
#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_ringviz.h"

using ringviz::test::lines_of;
using ringviz::test::run_ringviz;
using ringviz::test::RunResult;
using ringviz::test::check_refused;
using ringviz::test::TempDir;

namespace {

RunResult trace_values(const std::string& dtype, const std::string& init, const std::string& reduce = "sum") {
  return run_ringviz({"trace", "--gpus", "2", "--count", "1", "--dtype", dtype, "--reduce", reduce, "--init", init});
}

// The value options `command` lists in its --help ("--gpus", "--out", ...): an option whose
// name is followed by a type word (TEXT, INT, FLOAT, ...) takes a value; a flag has none.
std::vector<std::string> value_options(const std::vector<std::string>& command) {
  std::vector<std::string> help_arguments = command;
  help_arguments.push_back("--help");
  const RunResult help = run_ringviz(help_arguments);
  const std::regex option(R"(^\s+(?:-[A-Za-z],)?(--[a-z][a-z0-9-]*)(?:,-[A-Za-z])?\s+([A-Z]+)(?=[\s=:]|$))");
  std::vector<std::string> names;
  for (const std::string& line : lines_of(help.out)) {
    std::smatch match;
    if (std::regex_search(line, match, option) && match[1] != "--help") names.push_back(match[1]);
  }
  return names;
}

// The subcommands `ringviz --help` lists.
std::vector<std::string> subcommands() {
  const RunResult help = run_ringviz({"--help"});
  std::vector<std::string> names;
  bool in_list = false;
  for (const std::string& line : lines_of(help.out)) {
    if (line.rfind("Subcommands:", 0) == 0) {
      in_list = true;
      continue;
    }
    std::smatch match;
    static const std::regex entry(R"(^\s+([a-z]+)\s)");
    if (in_list && std::regex_search(line, match, entry)) names.push_back(match[1]);
    else if (in_list && !line.empty() && line[0] != ' ') in_list = false;
  }
  return names;
}

bool gui_built() { return run_ringviz({"--help"}).out.find("--screenshot") != std::string::npos; }

}  // namespace

TEST_CASE("--init values: on the command line refuses 3e9, 1.5 and nan as i32 and 70000 as f16, as file: does") {
  const std::string i32_range = "does not fit i32 (whole numbers from -2147483648 to 2147483647)";
  check_refused(trace_values("i32", "values:3e9,1/2,3"), "--init: values: GPU 0, element 0: 3000000000 " + i32_range);
  check_refused(trace_values("i32", "values:1.5/2"), "--init: values: GPU 0, element 0: 1.5 " + i32_range);
  check_refused(trace_values("i32", "values:nan/2"), "--init: values: GPU 0, element 0: nan " + i32_range);
  check_refused(trace_values("f16", "values:70000/2"), "70000 does not fit f16 (finite values up to ±65504");
  check_refused(trace_values("i32", "values:0x10/2"), "'0x10' is not a number");
  TempDir dir;
  check_refused(trace_values("i32", "file:" + dir.write("wide.json", "[[3e9], [2]]")), "3e9 " + i32_range);
  check_refused(trace_values("i32", "file:" + dir.write("half.json", "[[1.5], [2]]")), "1.5 " + i32_range);
  check_refused(trace_values("f16", "file:" + dir.write("big.json", "[[70000], [2]]")), "70000 does not fit f16");
}

TEST_CASE("an i64 value beyond 2^53 is kept exactly from --init values: and from an init file") {
  TempDir dir;
  for (const std::string& init :
       {std::string("values:9007199254740993/0"), "file:" + dir.write("exact.json", "[[9007199254740993], [0]]")}) {
    CAPTURE(init);
    const RunResult run =
        run_ringviz({"trace", "--gpus", "2", "--count", "1", "--dtype", "i64", "--init", init, "--format", "json"});
    REQUIRE(run.exit_code == 0);
    const nlohmann::json trace = nlohmann::json::parse(run.out);
    CHECK(trace["outputs"][0][0].get<std::int64_t>() == 9007199254740993LL);
    CHECK(trace["initial"][0][0].get<std::int64_t>() == 9007199254740993LL);
  }
}

TEST_CASE("an i64 init file value below INT64_MIN is refused, not clamped") {
  TempDir dir;
  check_refused(trace_values("i64", "file:" + dir.write("low.json", "[[-9223372036854775809], [0]]")),
                "[0][0] (GPU 0, element 0): -9223372036854775809 does not fit i64");
}

TEST_CASE("an empty value is refused with exit 2 on every option of every command") {
  std::vector<std::vector<std::string>> commands = {{}};
  for (const std::string& name : subcommands()) commands.push_back({name});
  REQUIRE(commands.size() >= 8);
  int tried = 0;
  for (const std::vector<std::string>& command : commands) {
    for (const std::string& option : value_options(command)) {
      std::vector<std::string> arguments = command;
      arguments.push_back(option);
      arguments.push_back("");
      CAPTURE(arguments);
      const RunResult run = run_ringviz(arguments);
      INFO("stderr: " << run.err);
      CHECK(run.exit_code == 2);
      CHECK(lines_of(run.err).size() == 1);
      CHECK(run.err.find("ringviz: " + option + ": ") == 0);
      CHECK(run.err.find("empty") != std::string::npos);
      ++tried;
    }
  }
  // Every command has options: the GUI's, trace's, record's, capture's ... (some 100 in all).
  CHECK(tried > 60);
  if (gui_built()) {
    for (const char* option : {"--view", "--theme", "--open", "--memory-model"})
      check_refused(run_ringviz({option, ""}), std::string(option) + ": '' is an empty value; give one (see ringviz --help)");
  }
  check_refused(run_ringviz({"record", "--layout", ""}), "--layout: '' is an empty value; give one (see ringviz record --help)");
  check_refused(run_ringviz({"memory", "--model", ""}), "--model: '' is an empty value");
  check_refused(run_ringviz({"compare", "--fit", ""}), "--fit: '' is an empty value");
}

TEST_CASE("a flag given twice is refused in our words on every command, capture included") {
  const std::vector<std::vector<std::string>> repeated = {
      {"trace", "--gpus", "4", "--gpus", "4"},     {"bench", "--gpus", "4", "--gpus", "2"},
      {"compare", "--gpus", "4", "--gpus", "4"},   {"memory", "--gpus", "4", "--gpus", "8"},
      {"train", "--gpus", "4", "--gpus", "4"},     {"lessons", "--lang", "en", "--lang", "zh"},
      {"record", "--fps", "10", "--fps", "10"},    {"capture", "--gpus", "4", "--gpus", "4"},
      {"capture", "--out", "a.json", "--out", "b.json"}};
  for (const std::vector<std::string>& arguments : repeated) {
    CAPTURE(arguments);
    const RunResult run = run_ringviz(arguments);
    if (arguments[0] == "capture" && run.err.find("built without MPI") != std::string::npos) continue;
    check_refused(run, "ringviz: " + arguments[1] + ": given 2 times; give it once");
    CHECK(run.err.find("At Most") == std::string::npos);
  }
}

TEST_CASE("an option of another command is named with its command, in the order typed") {
  // Without the GUI, --headless is unexpected too and is listed first.
  const RunResult run = run_ringviz({"--headless", "--lesson", "05-allreduce-traffic"});
  check_refused(run, std::string("ringviz: unexpected arguments: ") + (gui_built() ? "" : "--headless ") +
                         "--lesson 05-allreduce-traffic; --lesson is an option of `ringviz record`, not of this command");
  check_refused(run_ringviz({"trace", "--bogus", "1"}),
                "ringviz: unexpected arguments: --bogus 1 (see ringviz trace --help)");
}

TEST_CASE("an output path in a folder that takes no files is refused before any rendering") {
  if (gui_built()) {
    check_refused(run_ringviz({"--headless", "--screenshot", "/proc/version.png"}),
                  "--screenshot: cannot write into the folder '/proc'");
    check_refused(run_ringviz({"--headless", "--dump-layout", "/proc/layout.json"}),
                  "--dump-layout: cannot write into the folder '/proc'");
    check_refused(run_ringviz({"record", "--out", "/proc/clip.mp4"}), "--out: cannot write into the folder '/proc'");
    check_refused(run_ringviz({"record", "--out", "/proc/frames/"}), "--out: cannot write into the folder '/proc'");
  }
}

TEST_CASE("an integer reduction that wraps says so on stderr, naming the first element, and still runs") {
  const RunResult product = trace_values("i32", "values:100000/100000", "prod");
  INFO("stderr: " << product.err);
  CHECK(product.exit_code == 0);
  CHECK(product.err ==
        "ringviz: note: i32 prod overflows at element 0: the exact product 10000000000 does not fit i32, so it wraps "
        "around to 1410065408 (two's complement, as on a GPU)\n");
  CHECK(product.out.find("1410065408") != std::string::npos);  // computed as documented

  const RunResult average = trace_values("i32", "values:2147483647/2147483647", "avg");
  CHECK(average.exit_code == 0);
  CHECK(average.err ==
        "ringviz: note: i32 avg overflows at element 0: the exact sum 4294967294 does not fit i32, so it wraps around "
        "and the average is -1 (two's complement, as on a GPU)\n");

  const RunResult fits = trace_values("i32", "values:46340/46340", "prod");
  CHECK(fits.exit_code == 0);
  CHECK(fits.err.empty());
}

TEST_CASE("a JSON trace whose contributor lists pass 2^31 numbers is refused before anything runs") {
  const RunResult run = run_ringviz({"trace", "--format", "json", "--gpus", "256", "--count", "1"});
  check_refused(run, "ringviz: --gpus: a JSON trace of 1 element on 256 GPUs would print more than 2^31 numbers");
  CHECK(run.err.find("contributor lists, which grow as GPUs^3") != std::string::npos);
  CHECK(run.err.find("--format table or chrome") != std::string::npos);
  // Well under the cap, the document is written.
  CHECK(run_ringviz({"trace", "--format", "json", "--gpus", "16", "--count", "1"}).exit_code == 0);
}
