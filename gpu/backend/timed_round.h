#pragma once
// Internal to gpu/: one round submitted on its own and timed with CUDA events, from each
// GPU's round_start to the end of the last rank's part on it. This is how the visualiser
// steps: the device time of every round is shown.
#include "core/schedule/round_plan.h"
#include "gpu/backend/rank_resources.h"
#include "gpu/backend/round_submitter.h"

namespace ringviz::gpu {

// Copies the plan's staged reads first (never needed by the ring), submits the round and
// waits for it. Afterwards every stream is idle.
void submit_timed_round(RankResources& resources, RoundSubmitter& submitter, const RoundPlan& plan);

// The device time of the round submit_timed_round() last ran: the longest of the ranks that
// moved anything, 0 when none did (a round whose slots are all empty takes no device time).
double timed_round_microseconds(RankResources& resources);

}  // namespace ringviz::gpu
