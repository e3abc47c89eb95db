#pragma once
// Small Kineto traces written by the tests, shaped as PyTorch 2.x writes them: a
// `record_param_comms` CPU op per collective, the launch inside it and the NCCL kernel it
// started (with the same args repeated), `distributedInfo` and the annotated phases.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job/job_import.h"
#include "core/model/input_error.h"

namespace ringviz::test {

struct FakeCollective {
  std::string name = "allreduce";  // PyTorch's "Collective name"
  std::int64_t in = 1024, out = 1024;
  std::string dtype = "Float";
  std::string group = "0";
  std::vector<int> ranks = {0, 1};
  double start_us = 1000;  // the kernel's start; the CPU op runs 50 us before it
  double duration_us = 100;
  std::string kernel = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";
  int grid = 4;
  // PyTorch 2.4 on: `Rank` (a broadcast's root as a rank of the group), `Src Rank` / `Dst Rank`
  // (a recv's sender, a send's receiver, global ranks). Absent unless set.
  std::optional<int> rank_arg, src_rank, dst_rank;
  // `In split size` / `Out split size` as PyTorch writes them: "[]" unless an all_to_all's are uneven.
  std::string in_split = "[]", out_split = "[]";
};

inline std::string fake_kineto_trace(int rank, int world, const std::vector<FakeCollective>& collectives,
                                     const std::string& nccl_version = "2.18.3") {
  using nlohmann::json;
  json events = json::array();
  std::int64_t correlation = 100;
  events.push_back({{"ph", "X"}, {"cat", "user_annotation"}, {"name", "## backward ##"}, {"pid", 1}, {"tid", 1},
                    {"ts", 500.0}, {"dur", 5000.0}});
  for (const FakeCollective& c : collectives) {
    json args = {{"Collective name", c.name}, {"In msg nelems", c.in},   {"Out msg nelems", c.out},
                 {"dtype", c.dtype},          {"Group size", static_cast<int>(c.ranks.size())},
                 {"Process Group Name", c.group}, {"Process Group Ranks", json(c.ranks).dump()},
                 {"In split size", c.in_split},    {"Out split size", c.out_split}};
    if (c.rank_arg) args["Rank"] = *c.rank_arg;
    if (c.src_rank) args["Src Rank"] = *c.src_rank;
    if (c.dst_rank) args["Dst Rank"] = *c.dst_rank;
    json cpu_args = args;
    cpu_args["External id"] = correlation;
    events.push_back({{"ph", "X"}, {"cat", "cpu_op"}, {"name", "record_param_comms"}, {"pid", 1}, {"tid", 1},
                      {"ts", c.start_us - 50}, {"dur", 40.0}, {"args", cpu_args}});
    events.push_back({{"ph", "X"}, {"cat", "cuda_runtime"}, {"name", "cudaLaunchKernel"}, {"pid", 1}, {"tid", 1},
                      {"ts", c.start_us - 45}, {"dur", 5.0}, {"args", {{"correlation", correlation}}}});
    json kernel_args = args;
    kernel_args["correlation"] = correlation;
    kernel_args["grid"] = {c.grid, 1, 1};
    if (!c.kernel.empty())
      events.push_back({{"ph", "X"}, {"cat", "kernel"}, {"name", c.kernel}, {"pid", 0}, {"tid", 7},
                        {"ts", c.start_us}, {"dur", c.duration_us}, {"args", kernel_args}});
    ++correlation;
  }
  events.push_back({{"ph", "X"}, {"cat", "kernel"}, {"name", "sgemm_128x64"}, {"pid", 0}, {"tid", 7}, {"ts", 600.0},
                    {"dur", 300.0}, {"args", {{"correlation", 1}}}});
  json ranks = json::array();
  for (int r = 0; r < world; ++r) ranks.push_back(r);
  json doc = {{"schemaVersion", 1},
              {"deviceProperties", json::array({{{"id", 0}, {"name", "NVIDIA H100 80GB HBM3"}}})},
              {"distributedInfo",
               {{"backend", "nccl"},
                {"rank", rank},
                {"world_size", world},
                {"pg_count", 1},
                {"pg_config", json::array({{{"pg_name", "0"}, {"pg_desc", "default_pg"}, {"pg_size", world},
                                            {"ranks", ranks}}})},
                {"nccl_version", nccl_version}}},
              {"traceEvents", events}};
  return doc.dump();
}

// What import_job says of `files`: its one-line refusal, or "(no error)".
inline std::string import_error(const std::vector<std::string>& files) {
  try {
    import_job(files);
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace ringviz::test
