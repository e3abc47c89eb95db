// The JSON trace of 200 seeded random configs, byte for byte as a trusted build recorded them
// (tests/cli/trace_corpus/generate.py made the corpus): restructuring the engine must not
// change a single number, label or key order that a user's scripts may read.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "run_ringviz.h"

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

}  // namespace

TEST_CASE("every config of the recorded corpus traces to the same JSON bytes as before") {
  const std::filesystem::path corpus = RINGVIZ_TRACE_CORPUS_DIR;
  const std::vector<std::string> lines = ringviz::test::lines_of(read_file(corpus / "configs.txt"));
  REQUIRE(lines.size() == 200);
  for (const std::string& line : lines) {
    std::vector<std::string> words = words_of(line);
    REQUIRE(words.size() > 1);
    const std::string expected = read_file(corpus / "expected" / words.front());
    REQUIRE_FALSE(expected.empty());
    words.front() = "--format";
    words.insert(words.begin(), "trace");
    words.insert(words.begin() + 2, "json");
    CAPTURE(line);
    const auto run = ringviz::test::run_ringviz(words);
    REQUIRE(run.exit_code == 0);
    // A plain CHECK on two long documents prints both; say where they part instead.
    const auto mismatch = std::mismatch(run.out.begin(), run.out.end(), expected.begin(), expected.end());
    const auto at = static_cast<std::size_t>(mismatch.first - run.out.begin());
    CAPTURE(at);
    CHECK(run.out.size() == expected.size());
    CHECK(run.out.substr(at, 80) == expected.substr(at, 80));
  }
}
