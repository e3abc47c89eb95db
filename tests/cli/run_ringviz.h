#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace ringviz::test {

// What one run of the ringviz executable did.
struct RunResult {
  int exit_code = -1;  // 128 + signal number when it was killed
  std::string out;
  std::string err;
  long peak_rss_kib = 0;  // the child's largest resident set (Linux counts it in KiB)
};

// Runs the ringviz built alongside these tests with `arguments` (no shell involved) and
// captures both streams in full. With `stdout_file`, standard output goes to that file (or
// device, such as /dev/full) instead, and `out` stays empty.
RunResult run_ringviz(const std::vector<std::string>& arguments, const std::string& stdout_file = "");

// Any program (argv[0] a path), run and captured the same way: `mpirun ... ringviz capture`.
RunResult run_command(std::vector<std::string> argv);

// The same under an address-space limit (`ulimit -v`, in KiB), set by a shell that then
// becomes ringviz.
RunResult run_ringviz_with_address_limit(std::uint64_t limit_kib, const std::vector<std::string>& arguments);

// Whether this build (tests and executable alike) runs under AddressSanitizer, which maps
// terabytes of shadow address space and keeps freed memory in quarantine: address-space limits
// and resident-set bounds measure the sanitizer there, not ringviz.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitizedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif
#else
inline constexpr bool kSanitizedBuild = false;
#endif

// Terminal columns of UTF-8 text, judged independently of ringviz's own code: code points from
// U+2E80 (CJK radicals, ideographs, full-width forms) take two, the rest (U+FFFD too) one.
std::size_t terminal_columns(const std::string& text);

// The lines of `text` (without their newline characters).
std::vector<std::string> lines_of(const std::string& text);

// Checks (doctest) that `run` was refused as bad input: exit 2, nothing on stdout, one line on
// stderr containing `expected_part` and no library exception text.
void check_refused(const RunResult& run, const std::string& expected_part);

// The Markdown table that follows the first line equal to `heading`: its header, separator and
// rows, one per line. Empty when the heading or the table is missing.
std::string markdown_table_after(const std::string& markdown, const std::string& heading);

}  // namespace ringviz::test
