#pragma once
// Internal to gpu/: several rounds submitted together (the benchmark's fast mode), each round
// cut into chunks so that a chunk travels on to the next round while the rest of the round is
// still in flight, as NCCL pipelines its ring. Captured once into a CUDA graph and replayed
// while the rounds stay the same; where the driver will not capture them, the same work goes
// on the streams directly.
#include <cstdint>
#include <string>
#include <vector>

#include "core/schedule/rounds.h"
#include "core/schedule/round_plan.h"
#include "gpu/backend/cuda_owners.h"
#include "gpu/backend/rank_resources.h"
#include "gpu/backend/round_submitter.h"

namespace ringviz::gpu {

// Chunks per slot so that a chunk of the largest slot is about `chunk_bytes` (at most 64;
// chunk_bytes 0: 1, whole rounds).
int chunks_per_slot(const std::vector<Round>& rounds, const CollectiveShape& shape,
                    std::uint64_t chunk_bytes);

class CollectiveGraph {
 public:
  CollectiveGraph(RankResources& resources, RoundSubmitter& submitter)
      : resources_(resources), submitter_(submitter) {}

  // Runs `plans` (of `rounds`, none staging anything) chunk-major and waits for them; through
  // a CUDA graph when `use_graphs` and the driver has not refused one. Returns how it went:
  // "one CUDA graph" or "one stream per rank".
  std::string submit(const std::vector<Round>& rounds, const std::vector<RoundPlan>& plans,
                     int chunks, bool use_graphs);

  // The rank buffers changed: a captured graph would still point at the old ones.
  void forget();

 private:
  // Every plan, chunk by chunk, forked from and joined back into GPU 0's control stream, with
  // no host synchronisation anywhere: what a graph captures.
  void enqueue_all(const std::vector<RoundPlan>& plans, int chunks);
  bool capture(const std::vector<RoundPlan>& plans, int chunks);

  RankResources& resources_;
  RoundSubmitter& submitter_;
  std::vector<Round> captured_rounds_;
  int captured_chunks_ = 0;
  CudaGraph graph_;
  CudaGraphExec executable_;
  bool refused_ = false;  // the driver would not capture once: stop trying
};

}  // namespace ringviz::gpu
