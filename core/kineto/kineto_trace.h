#pragma once
// What one rank's PyTorch profiler (Kineto) trace says about communication, kept small: the
// collectives' CPU ops, the NCCL kernels and the launches that tie the two, the annotated
// training phases and the GPU's compute kernels (docs/job-format.md). Everything else in the
// trace is read past and dropped.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/run/run.h"

namespace ringviz {

struct KinetoGroupConfig {
  std::string name, description;
  std::vector<int> ranks;
};

// A collective as the CPU issued it: `record_param_comms`, or in older traces a `nccl:<coll>`
// op with `Input Dims`.
struct KinetoCommOp {
  std::int64_t event = 0;  // index in traceEvents, for messages
  std::string collective;  // "allreduce", "_allgather_base", "all_reduce" (from nccl:all_reduce)
  bool from_record_param_comms = true;
  std::string group_name;
  std::optional<std::vector<int>> group_ranks;
  std::optional<int> group_size;
  std::optional<std::int64_t> in_elements, out_elements;
  // `In split size` / `Out split size`: an all_to_all's uneven splits, one per member of the
  // group ("[]" when even, or in traces without them).
  std::vector<std::int64_t> in_splits, out_splits;
  std::string unreadable_in_splits, unreadable_out_splits;  // as written, where not such a list
  std::string dtype;        // PyTorch's ("Float") or, from Input type, C++'s ("float")
  // `Rank` (PyTorch 2.4 on): the rank argument of the op's record, which for a broadcast is its
  // root as a rank of the group (ProcessGroupNCCL records opts.rootRank there); for the other
  // collectives the caller's own. `Src Rank` / `Dst Rank`: the global rank a recv came from and
  // a send went to. Absent in older traces.
  std::optional<int> rank_arg, src_rank, dst_rank;
  bool sizes_from_input_dims = false;
  double ts = 0, dur = 0;
  std::int64_t pid = 0, tid = 0;
};

struct KinetoKernel {
  std::int64_t event = 0;
  std::string name;
  double ts = 0, dur = 0;
  std::int64_t correlation = -1;
  std::optional<int> grid_x;
  std::optional<KinetoCommOp> args;  // newer traces repeat the collective's args on the kernel
};

struct KinetoLaunch {
  double ts = 0;
  std::int64_t pid = 0, tid = 0;
};

struct KinetoRankTrace {
  std::string path;
  std::optional<int> rank, world_size;
  std::string backend, nccl_version, gpu;
  std::vector<KinetoGroupConfig> groups;
  std::vector<KinetoCommOp> comm_ops;
  std::vector<KinetoKernel> nccl_kernels;
  std::unordered_map<std::int64_t, KinetoLaunch> launches;  // by correlation id
  std::vector<ComputeSpan> phases;                           // forward, backward, optimizer
  std::vector<TimeSpan> compute_kernels;                     // GPU kernels that are not NCCL's
  double earliest_ts = 0;  // the first timestamp of any event kept, on the trace's clock
  bool any_event = false;
  std::int64_t events = 0;
  std::uint64_t text_bytes = 0, file_bytes = 0;
};

// Reads `path` (.json or .json.gz). Throws InputError "<path>[:line:col]: <problem>" for a file
// that is not JSON or not a Chrome trace with `traceEvents`.
KinetoRankTrace read_kineto_trace(const std::string& path);

// The collective's fields read from an event's `args` (record_param_comms, or an NCCL kernel
// that repeats them); nullopt when it names no collective.
std::optional<KinetoCommOp> comm_op_of_args(const nlohmann::json& args);

}  // namespace ringviz
