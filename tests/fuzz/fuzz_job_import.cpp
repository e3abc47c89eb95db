// libFuzzer target: `job import` of a profiler trace (streamed, gzip or not) and the reading of
// job documents, the Run model's checks included. Any exception but InputError, and any
// sanitizer report, is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/job/job_document.h"
#include "core/job/job_import.h"
#include "core/model/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The importer reads files (it streams them): each input goes through one.
  static const std::string path = "/tmp/ringviz-fuzz-job-" + std::to_string(getpid()) + ".json";
  if (FILE* file = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, file);
    std::fclose(file);
    try {
      ringviz::import_job({path});
    } catch (const ringviz::InputError&) {
      // refused with a message
    }
  }
  try {
    ringviz::parse_job_document(text, "fuzz.json");
  } catch (const ringviz::InputError&) {
  }
  return 0;
}
