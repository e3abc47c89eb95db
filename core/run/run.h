#pragma once
// A run: what a job did, as a timeline per rank (docs/architecture.md, "The Run model").
// Process groups name ranks by their global number; each rank lists the collectives it took
// part in, in the order it issued them, and the compute it did between them. A single
// collective (`trace --format json`, a capture) is a run of one group and one instance per
// rank; a training job is many collectives over several groups with compute around them.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/algorithms/algorithm_list.h"
#include "core/model/config.h"
#include "core/model/dtype.h"
#include "core/model/enum_table.h"
#include "core/model/reduce_op.h"
#include "core/trace/trace_read.h"

namespace ringviz {

// Ranks that run collectives together (an NCCL communicator, a PyTorch process group).
// `ranks[i]` is the global rank that is GPU i of the group's collectives.
struct ProcessGroup {
  std::string name;
  std::vector<int> ranks;
  std::string description;  // the source's words for it ("default_pg"); may be empty
};

// Microseconds on the run's one clock (a capture's: rank 0's, from the start of its first
// round).
struct TimeSpan {
  double start_us = 0;
  double end_us = 0;
};

// What the library that ran a collective says it chose, in its own words ("RING", "LL",
// the kernel's grid as channels); empty where the source does not say.
struct LibraryChoice {
  std::string algorithm;
  std::string protocol;
  std::optional<int> channels;
};

// A DDP gradient bucket, as a live recording saw it (python/ringviz_torch): its AllReduce is
// the collective that carries it.
struct GradientBucket {
  int index = 0;  // from 0, in the order DDP reduced them
  int of = 0;     // buckets in the iteration
  std::optional<int> iteration;  // the training iteration, from 0, where the recording counted
  std::vector<std::string> parameters;
  std::optional<double> ready_us;  // when its last gradient was ready
};

// One rank's part of one collective. The ranks of a group issue their collectives on it in
// the same order, so the k-th instance on a group in every member's timeline is one
// collective (see run_collectives.h).
struct CollectiveInstance {
  Op op = Op::allreduce;
  int group = 0;  // index into Run::groups
  std::int64_t count = 0;  // elements each rank starts with (Config::count)
  DType dtype = DType::f32;
  ReduceOp reduce = ReduceOp::sum;
  // The schedule ringviz steps it with.
  Algorithm algorithm = Algorithm::ring;
  Order order = Order::seed;
  int channels = 1;
  int slices = 1;
  // A broadcast's source and the other side of a send/recv, as global ranks, where the source
  // says (PyTorch's `src` and `dst`); both must be members of the instance's group. A
  // broadcast without a root is stepped from the group's first GPU.
  std::optional<int> root;
  std::optional<int> peer;
  // An AllToAll with uneven splits, as this rank gave them, one entry per member of the group in
  // the group's order (PyTorch's input_split_sizes and output_split_sizes): what it sends each
  // member and what it receives from each. Empty where the blocks are even or the source does
  // not say; then `count` is the same on every rank, else it is this rank's input (the sum of
  // in_splits) and the ranks' counts differ.
  std::vector<std::int64_t> in_splits, out_splits;
  // Bytes of one rank's input as the source states them; must equal count x dtype size.
  std::optional<std::int64_t> bytes;
  std::optional<TimeSpan> measured;
  LibraryChoice library;
  std::string label;  // how the source names it ("bucket 3"); may be empty
  std::optional<GradientBucket> bucket;
  // The fields the source did not state but the import derived ("count" from `Input Dims`,
  // "duration_us" from a CPU op), by their job-document names.
  std::vector<std::string> derived;
  // The document's rounds and buffers where the collective was recorded by ringviz; one
  // recording is shared by every rank's instance of the collective.
  std::shared_ptr<const RecordedRun> recording;
};

enum class ComputeKind { forward, backward, optimizer, kernel };
inline constexpr EnumName<ComputeKind> kComputeKindNames[] = {
    {ComputeKind::forward, "forward"},
    {ComputeKind::backward, "backward"},
    {ComputeKind::optimizer, "optimizer"},
    {ComputeKind::kernel, "kernel", "", "a kernel outside an annotated phase"}};
inline constexpr EnumNamer compute_kind_name{kComputeKindNames};

struct ComputeSpan {
  std::string name;
  ComputeKind kind = ComputeKind::kernel;
  TimeSpan time;
};

struct RankTimeline {
  // False for a rank of the job that the source did not record (a trace of 2 ranks out of
  // 128): it lists nothing, and its part of each collective is the schedule's.
  bool traced = true;
  std::vector<CollectiveInstance> collectives;  // in the order the rank issued them
  std::vector<ComputeSpan> compute;             // in order of start
  // What was added to the source's clock to put this rank's times on the run's clock.
  double clock_offset_us = 0;
  // The machine the rank ran on, where the source names it (a live recording's parts); ranks
  // with one host share its clock. Empty where unknown.
  std::string host;
};

struct Run {
  std::vector<ProcessGroup> groups;
  std::vector<RankTimeline> ranks;  // indexed by global rank

  int world_size() const { return static_cast<int>(ranks.size()); }
};

}  // namespace ringviz
