#pragma once
// Internal to gpu/: puts planned rounds (core/schedule/round_plan.h) on the ranks' streams. A receiver
// pulls: it copies each incoming slot (cudaMemcpyAsync / cudaMemcpyPeerAsync) or runs the
// reduce kernel reading the sender's slot straight from the sender's memory, on its own
// stream, after waiting for the events StreamOrdering names. Nothing here waits on the host,
// so a whole collective can be enqueued into one CUDA graph capture.
#include <span>

#include "core/schedule/round_plan.h"
#include "gpu/backend/cuda_owners.h"
#include "gpu/backend/rank_resources.h"
#include "gpu/backend/stream_ordering.h"

namespace ringviz::gpu {

// Element `chunk` * count / chunks rounded down to kChunkAlignElements; chunk == chunks gives
// the count. Chunks of a slot are [boundary(k), boundary(k + 1)).
std::int64_t chunk_boundary(std::int64_t count, int chunk, int chunks);

class RoundSubmitter {
 public:
  explicit RoundSubmitter(RankResources& resources) : resources_(resources) {}

  // A submission starts with every stream idle.
  void begin() { ordering_.begin(resources_.shape().ranks); }

  // `plan`, restricted to chunk `chunk` of `chunks` of every slot. `staged_copies[i]` holds
  // plan.staged_reads()[i] as it was before the round (empty when the plan stages nothing).
  // `timed`: every receiver starts after its GPU's round_start event and records `finished`.
  void enqueue(const RoundPlan& plan, int chunk, int chunks, bool timed,
               std::span<const DeviceMemory> staged_copies);

 private:
  void wait_before_writing(const RoundPlan& plan, bool timed);
  // Returns whether the receiver had any elements to move in this chunk.
  bool pull_slots(const RoundPlan& plan, int receiver, int chunk, int chunks,
                  std::span<const DeviceMemory> staged_copies);
  void transfer(const PlannedTransfer& planned, const PlannedDestination& destination, bool last,
                std::int64_t begin, std::int64_t count, std::span<const DeviceMemory> staged_copies);

  RankResources& resources_;
  StreamOrdering ordering_;
};

}  // namespace ringviz::gpu
