// Numbers in tables stay numbers a person reads: a time always has a unit and a few
// significant digits, however absurd the figures it comes from, and no column runs into the
// next.
#include <doctest/doctest.h>

#include <regex>
#include <string>

#include "run_ringviz.h"

using ringviz::test::lines_of;
using ringviz::test::run_ringviz;
using ringviz::test::RunResult;

namespace {

// The longest run of digits in `text`: a 30-digit time is a number nobody can read.
std::size_t longest_digit_run(const std::string& text) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : text) {
    run = (c >= '0' && c <= '9') ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

TEST_CASE("compare over a link of 1e-30 GB/s prints its 10^27-second times in powers of ten, with a unit") {
  const RunResult run = run_ringviz({"compare", "--bandwidth-gbs", "1e-30", "--sweep"});
  INFO("stdout: " << run.out);
  REQUIRE(run.exit_code == 0);
  CHECK(longest_digit_run(run.out) <= 10);
  const std::regex ring_row(R"(^ring +\d+ +\d+ .* (\d\.\d{3}e\+\d{2} s) +1\.00x$)");
  bool found = false;
  for (const std::string& line : lines_of(run.out))
    if (std::regex_match(line, ring_row)) found = true;
  CHECK(found);
}

TEST_CASE("compare with a vanishing α prints nanoseconds, not zero microseconds") {
  const RunResult run = run_ringviz({"compare", "--alpha-us", "1e-12", "--count", "0"});
  INFO("stdout: " << run.out);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("1e-09 ns per message") != std::string::npos);
  CHECK(run.out.find("0.00 µs") == std::string::npos);
}

TEST_CASE("memory in bytes for 100T parameters keeps a space between its 16-digit columns") {
  const RunResult run = run_ringviz({"memory", "--params", "100T", "--gpus", "1", "--unit", "bytes"});
  INFO("stdout: " << run.out);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("200000000000000 200000000000000") != std::string::npos);
  CHECK(longest_digit_run(run.out) <= 16);
}

TEST_CASE("compare widens a column to its widest time, keeping a space between columns") {
  // Absurd link figures make every time 13 characters wide; 8 GPUs are enough for that and cost
  // the sanitizer run a second, where 256 cost it a minute.
  const RunResult run = run_ringviz({"compare", "--gpus", "8", "--count", "1G", "--alpha-us", "1e12",
                                     "--bandwidth-gbs", "1e-300", "--gamma-ps", "1e12"});
  INFO("stdout: " << run.out);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("in)7") == std::string::npos);
  CHECK(run.out.find("in) 7.516e+300 s") != std::string::npos);
}

TEST_CASE("compare on one GPU prints its zero link load and time with their units") {
  const RunResult run = run_ringviz({"compare", "--gpus", "1", "--count", "1"});
  INFO("stdout: " << run.out);
  REQUIRE(run.exit_code == 0);
  const std::regex ring_row(R"(^ring +0 +0 +0 B +0 B +0 s +- *$)");
  bool found = false;
  for (const std::string& line : lines_of(run.out))
    if (std::regex_match(line, ring_row)) found = true;
  CHECK(found);
}

TEST_CASE("bench ends with its average bus bandwidth in GB/s, to four significant digits") {
  const RunResult run = run_ringviz({"bench", "--backend", "cpu", "-b", "1K", "-e", "1K", "-w", "0", "-i", "1"});
  INFO("stdout: " << run.out);
  REQUIRE(run.exit_code == 0);
  const std::regex average(R"(^# Avg bus bandwidth    : [0-9.]+(e[-+]\d+)? GB/s$)");
  bool found = false;
  for (const std::string& line : lines_of(run.out))
    if (std::regex_match(line, average)) found = true;
  CHECK(found);
}

TEST_CASE("the memory timeline prints each column with one precision, small bucket sizes included") {
  const RunResult run = run_ringviz({"memory", "-s", "ddp", "--timeline", "--bucket-mb", "16"});
  INFO("stdout: " << run.out);
  REQUIRE(run.exit_code == 0);
  // A row: step, params, grads, optimizer, transient, total, then the words.
  const std::regex row(R"(^ +\d+ +([0-9.]+) +([0-9.]+) +([0-9.]+) +([0-9.]+) +([0-9.]+)  \S.*$)");
  std::string grads_decimals;
  int rows = 0;
  for (const std::string& line : lines_of(run.out)) {
    std::smatch match;
    if (!std::regex_match(line, match, row)) continue;
    const std::string grads = match[2];
    const std::string decimals = grads.substr(grads.find('.'));
    if (rows++ == 0) grads_decimals = std::string(decimals.size(), '#');
    CHECK(std::string(decimals.size(), '#') == grads_decimals);
  }
  CHECK(rows > 10);
  CHECK(run.out.find(" 0.0168 ") != std::string::npos);
}

TEST_CASE("a trace of one GPU and one element per chunk says GPU, chunk and element in the singular") {
  const RunResult run = run_ringviz({"trace", "--gpus", "1", "--count", "1"});
  INFO("stdout: " << run.out);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("on 1 GPU\n") != std::string::npos);
  CHECK(run.out.find("cut into 1 chunk, 1 element per chunk") != std::string::npos);
}

TEST_CASE("one element that cannot be split over two GPUs is named in the singular") {
  const RunResult run = run_ringviz({"trace", "--gpus", "2", "--count", "1"});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("1 element cannot be split evenly over 2 GPUs") != std::string::npos);
}
