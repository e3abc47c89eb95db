#pragma once
#include "core/model/config.h"
#include "core/schedule/rounds.h"

namespace ringviz {

// Schedules are data: the CPU and CUDA backends, the trace printer and the GUI all walk the
// same list of rounds. With config.channels or config.slices above 1 the rounds are the
// pipeline's waves (core/schedule/pipeline.h); throws InputError when that is too many transfers.
Schedule make_schedule(const Config& config);
// The article's rounds whatever config.channels and config.slices say.
Schedule make_lock_step_schedule(const Config& config);

// The slot rank `rank` holds fully reduced after a ring reduce-scatter pass (and so the shard
// of the optimizer state ZeRO gives it): the ring schedule's owned_slot, for any number of
// ranks, without building the schedule (docs/architecture.md, "Collective semantics").
int ring_owned_slot(Order order, int rank, int ranks);

}  // namespace ringviz
