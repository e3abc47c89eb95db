#pragma once
// The ring's ownership rule, which more than the ring's schedule relies on: ZeRO's shards, the
// training run and the bench's check all ask which slot a rank ends up with.
// make_schedule() is the registry's (core/algorithms/registry.h).
#include "core/model/config.h"

namespace ringviz {

// The slot rank `rank` holds fully reduced after a ring reduce-scatter pass (and so the shard
// of the optimizer state ZeRO gives it): the ring schedule's owned_slot, for any number of
// ranks, without building the schedule (docs/architecture.md, "Collective semantics").
int ring_owned_slot(Order order, int rank, int ranks);

// The first slot rank `rank` sends in a ring reduce-scatter pass; at step t it sends
// (first - t), the partial result it received at step t - 1.
int ring_reduce_scatter_first_slot(Order order, int rank, int ranks);

// `value` modulo `ranks`, in 0 .. ranks - 1 also for negative values.
inline int wrap_rank(int value, int ranks) { return ((value % ranks) + ranks) % ranks; }

}  // namespace ringviz
