// libFuzzer target: `--init file:` parsing for every element type. The input is the file; its
// shape (GPUs, count) is taken from the input itself so that most inputs reach the element
// checks. Any exception but InputError, and any sanitizer report, is a finding.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include <unistd.h>

#include "core/model/config.h"
#include "core/input/initial_values.h"
#include "core/model/input_error.h"

namespace {

// The input as a file, as `--init file:` reads it: one per process, rewritten per input.
const std::string& input_path() {
  static const std::string path = "/tmp/ringviz-fuzz-init-" + std::to_string(::getpid()) + ".json";
  return path;
}

void write_input(const std::uint8_t* data, std::size_t size) {
  std::FILE* file = std::fopen(input_path().c_str(), "wb");
  if (file == nullptr) __builtin_trap();
  std::fwrite(data, 1, size, file);
  std::fclose(file);
}

// GPUs and count as the file suggests (rows at depth 1, entries of the first row at depth 2,
// clamped small), so a well-shaped file is accepted. A rough count is enough: it only steers.
void shape_from(const std::uint8_t* data, std::size_t size, int& ranks, std::int64_t& count) {
  int depth = 0, rows = 0, first_row_commas = 0;
  bool first_row_empty = true;
  for (std::size_t at = 0; at < size; ++at) {
    const char c = static_cast<char>(data[at]);
    if (c == '[') {
      if (++depth == 2) ++rows;
    } else if (c == ']') {
      --depth;
    } else if (depth == 2 && rows == 1) {
      if (c == ',') ++first_row_commas;
      else if (c != ' ' && c != '\n') first_row_empty = false;
    }
  }
  ranks = std::clamp(rows, 1, 8);
  count = first_row_empty ? 0 : std::clamp(first_row_commas + 1, 1, 16);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  write_input(data, size);
  ringviz::Config config;
  shape_from(data, size, config.ranks, config.count);
  config.init.kind = ringviz::InitKind::file;
  config.init.path = input_path();
  for (ringviz::DType dtype : ringviz::kAllDTypes) {
    config.dtype = dtype;
    try {
      ringviz::make_initial_state(config);
    } catch (const ringviz::InputError&) {
      // refused with a message: the expected outcome for most inputs
    }
  }
  return 0;
}
