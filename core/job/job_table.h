#pragma once
// `ringviz job show`: one row per collective instance, in nccl-tests' columns (size, count,
// type, redop, time, algbw, busbw with nccl-tests' factors) plus group, NCCL's algorithm,
// protocol and channels; and a summary per op and process group (docs/job-format.md).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/run/job.h"

namespace ringviz {

struct JobRow {
  int rank = 0;
  int sequence = 0;  // the instance's place among its group's collectives
  const CollectiveInstance* instance = nullptr;  // points into the job, which must outlive the rows
  int group_size = 0;
  std::int64_t size_bytes = 0;  // nccl-tests' size
  double time_us = 0;           // 0 where not measured
  double algbw_gbps = 0, busbw_gbps = 0;
  // What the NCCL model (docs/nccl-model.md) predicts for it on the job's assumed link, with
  // the algorithm, protocol and channels NCCL recorded (its own choice where none was); 0: none.
  double predicted_us = 0;
  // The rank that started it last among those traced, when it started later than another: the
  // others waited for it.
  bool slowest = false;
  // The part of its time the same rank's compute also covered: its GPU's busy time where the
  // trace has GPU kernels, else its annotated phases.
  double hidden_fraction = 0;
  // False where the time is the CPU op's (derived): the CPU's span says nothing of what the GPU
  // overlapped.
  bool hidden_known = false;
};

struct JobSummary {
  Op op = Op::allreduce;
  std::string group;
  int collectives = 0;   // across the group (one per sequence number)
  std::int64_t bytes = 0;  // nccl-tests' size, summed over collectives
  double total_us = 0;   // each collective's time averaged over its traced ranks, summed
  // Of the ranks' collective time, the part under compute; absent where every time is derived.
  std::optional<double> hidden_share;
  int slowest_rank = -1;    // the rank that was slowest most often
  int slowest_times = 0;
};

struct JobTable {
  std::vector<JobRow> rows;  // by start time, then rank
  std::string predicted_on;  // the assumed link the predictions use, in words; "" when none
  std::vector<JobSummary> summaries;
};

JobTable job_table(const Job& job);

std::string job_table_text(const Job& job, const JobTable& table);
std::string job_table_json(const Job& job, const JobTable& table);

}  // namespace ringviz
