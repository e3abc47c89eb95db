#pragma once
// `ringviz job import FILE_OR_FOLDER...`: profiler traces (one per rank) or the parts a live
// recording wrote (python/ringviz_torch), found in the files and folders given, read and
// joined into one job (docs/job-format.md).
#include <cstdint>
#include <string>
#include <vector>

#include "core/run/job.h"

namespace ringviz {

struct JobImportStats {
  std::uint64_t text_bytes = 0;  // trace text read, decompressed
  std::uint64_t file_bytes = 0;  // as stored
  std::int64_t events = 0;
};

// The files `inputs` name: each file as given, each folder's *.json and *.json.gz (not below
// it), sorted by name. Throws InputError for a path that does not exist or a folder with none.
std::vector<std::string> job_input_files(const std::vector<std::string>& inputs);

// Throws InputError "<file>[:line:col]: <problem>" for anything that cannot be one job.
Job import_job(const std::vector<std::string>& files, JobImportStats* stats = nullptr);

}  // namespace ringviz
