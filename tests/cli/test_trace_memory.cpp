// A trace is written while it runs: its memory follows one round, not the whole history
// (docs/architecture.md, "How a round flows"), so the largest configs finish.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "run_ringviz.h"

namespace {

// Checks the syntax of a whole document and counts the objects that carry a "round" key,
// without building the document in memory.
class RoundCounter : public nlohmann::json_sax<nlohmann::json> {
 public:
  int rounds = 0;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t& name) override {
    if (name == "round") ++rounds;
    return true;
  }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

}  // namespace

TEST_CASE("a 256-GPU JSON trace is written round by round, in far less memory than its history" *
          doctest::skip(ringviz::test::kSanitizedBuild)) {
  // rhd AllGather on 256 GPUs: 8 rounds, 43 MB of JSON. Holding every round cost 230 MB of
  // resident memory; streaming them costs about 30 MB.
  const ringviz::test::RunResult run = ringviz::test::run_ringviz(
      {"trace", "--gpus", "256", "--op", "allgather", "--algo", "rhd", "--format", "json", "--backend", "cpu"});
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.peak_rss_kib < 100 * 1024);
  RoundCounter counter;
  CHECK(nlohmann::json::sax_parse(run.out, &counter));
  CHECK(counter.rounds == 8);
}
