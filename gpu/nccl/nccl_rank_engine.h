#pragma once
// One rank of a ring run as one process per rank (`ringviz capture --transport nccl`;
// docs/architecture.md, "The NCCL transport"): this rank's working buffer on its GPU,
// each round's transfers as NCCL point-to-point calls in one group, and the folds by the CUDA
// backend's kernels, so the buffer stays bit-identical to the CPU engine. The caller (app/)
// picks the device, hands every rank the unique id and takes the times between the steps of
// a round. No CUDA, NCCL or MPI type here.
#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "core/schedule/collective_shape.h"
#include "core/model/buffers.h"
#include "core/model/config.h"
#include "core/schedule/rank_exchange.h"

namespace ringviz::gpu {

// The bytes of an ncclUniqueId: made by one rank, handed to every other rank by the caller.
using NcclUniqueIdBytes = std::array<std::byte, 128>;

// Whether this process can use libnccl.
struct NcclLibraryState {
  bool usable = false;
  bool found = false;  // a libnccl was opened (it may still lack an entry point)
  std::string reason;  // why not usable: "libnccl.so.2 not found (…)", "libnccl.so.2 lacks ncclSend"
};
NcclLibraryState nccl_library_state();

// A new communicator id (one rank calls this). Throws CudaError.
NcclUniqueIdBytes make_nccl_unique_id();

// NCCL's own collective on this rank (`--iters`).
struct NcclCollectiveRun {
  double seconds = 0;  // this rank's mean host wall-clock time per collective, run back to back
  ByteBuffer output;   // this rank's receive buffer after the first, untimed run
};

class NcclRankEngine {
 public:
  // Makes CUDA device `device` current for the calling thread and joins the communicator of
  // `ranks` ranks named by `id` as `rank`. Every rank must construct its engine at about the
  // same time: NCCL blocks until all have joined. Throws CudaError.
  NcclRankEngine(int device, int ranks, int rank, const NcclUniqueIdBytes& id);
  ~NcclRankEngine();
  NcclRankEngine(const NcclRankEngine&) = delete;
  NcclRankEngine& operator=(const NcclRankEngine&) = delete;

  int device() const;
  int rank() const;
  int ranks() const;
  // Allocates this rank's working buffer for `shape` on the device and copies `initial` in.
  void load(const CollectiveShape& shape, const ByteBuffer& initial);
  // Posts this rank's part of a planned round and returns: the copies of slots read and written
  // in the round, then every receive of `exchange` (into a staging buffer, or straight into the
  // slot when it is one plain copy) and every send, in one NCCL group.
  void post(const RoundPlan& plan, const RankExchange& exchange);
  // Blocks until every receive and send posted by post() is complete.
  void wait_for_arrivals();
  // Folds the staged arrivals into this rank's destinations in the plan's order, divides where
  // the plan says, and blocks until done.
  void fold(const RoundPlan& plan);
  // Copies this rank's working buffer to the host.
  void fetch(ByteBuffer& buffer);

  // Runs ncclAllReduce / ncclReduceScatter / ncclAllGather of `dtype` and `reduce` once on
  // `input` (this rank's send buffer: `count` elements, or for ReduceScatter count / ranks per
  // chunk), then `iterations` times back to back under the host clock, between two calls of
  // `barrier` (the caller's barrier across ranks). Every rank must call it with the same
  // arguments. Needs no load().
  NcclCollectiveRun run_collective(Op op, DType dtype, ReduceOp reduce, const ByteBuffer& input, int iterations,
                                   const std::function<void()>& barrier);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ringviz::gpu
