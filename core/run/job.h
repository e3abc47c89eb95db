#pragma once
// A training job as ringviz holds it (docs/job-format.md): the run (groups, and per rank its
// collectives and compute), what the job was (world size, backend, NCCL version, GPU) and
// where it was read from.
#include <string>
#include <vector>

#include "core/run/measured_memory.h"
#include "core/run/run.h"

namespace ringviz {

struct JobInfo {
  int world_size = 0;
  std::string backend;
  std::string nccl_version;
  std::string gpu;
  std::string source_kind;  // "kineto", "ringviz_torch"
  std::vector<std::string> files;
  // What the import left out and why ("6 broadcast of dtype Byte: ringviz steps f32, ..."),
  // one sentence each, for `job show` to repeat.
  std::vector<std::string> notes;
};

struct Job {
  JobInfo info;
  Run run;
  // What `ringviz_torch.measure` measured, every rank's configurations in rank order; empty for
  // jobs that measured nothing (and for documents written before it existed).
  std::vector<MeasuredMemory> memory;
};

// The global ranks the source did not record, in order.
std::vector<int> untraced_ranks(const Run& run);

}  // namespace ringviz
