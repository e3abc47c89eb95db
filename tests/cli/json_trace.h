#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "run_ringviz.h"

namespace ringviz::test {

// `ringviz trace --format json` with `arguments`, parsed; the run must succeed. The CPU
// backend unless the test names one: on a GPU machine `auto` would add measured times.
inline nlohmann::json json_trace(std::vector<std::string> arguments) {
  const bool names_backend =
      std::find(arguments.begin(), arguments.end(), "--backend") != arguments.end();
  arguments.insert(arguments.begin(), "trace");
  arguments.insert(arguments.end(), {"--format", "json"});
  if (!names_backend) arguments.insert(arguments.end(), {"--backend", "cpu"});
  const RunResult run = run_ringviz(arguments);
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  return nlohmann::json::parse(run.out);
}

// JSON arrays print as JSON in doctest's failure messages.
inline nlohmann::json rows(std::initializer_list<std::vector<double>> values) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& row : values) all.push_back(row);
  return all;
}

}  // namespace ringviz::test

namespace doctest {
template <>
struct StringMaker<nlohmann::json> {
  static String convert(const nlohmann::json& value) { return value.dump().c_str(); }
};
}  // namespace doctest
