// libFuzzer target: reading `ringviz.trace/1` documents (traces and captures) into runs, the
// Run model's checks included. Any exception but InputError, and any sanitizer report, is a
// finding.
#include <cstdint>
#include <string_view>

#include "core/model/input_error.h"
#include "core/run/run_from_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    ringviz::parse_run(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
  } catch (const ringviz::InputError&) {
    // refused with a message
  }
  return 0;
}
