#pragma once
// Runs a whole collective (or one of its two ring passes) on a backend from a given set of
// rank buffers. This is how code that is not a step-by-step Session (the training run, the
// benchmarks) uses ringviz's own collectives, so every byte it moves goes through the same
// schedule, the same backend and the same arithmetic as the lessons.
#include <cstdint>
#include <vector>

#include "core/engine/backend.h"
#include "core/model/buffers.h"
#include "core/model/config.h"
#include "core/model/layout.h"

namespace ringviz {

// AllReduce is a reduce-scatter pass followed by an all-gather pass; ZeRO uses the passes on
// their own (reduce-scatter of gradients, all-gather of parameters) over the same slots.
enum class RingPasses { all, reduce_scatter_only, all_gather_only };

// Bytes each rank sent and received in the rounds that ran.
struct CollectiveTraffic {
  std::vector<std::int64_t> sent;
  std::vector<std::int64_t> received;
};

// Runs the rounds of the collective `config` describes (op, order, ranks, count, dtype,
// reduce; `init` is ignored because the inputs are `state`) on `backend`. `state` holds every
// rank's working buffer (make_layout(config).elements_per_rank elements of config.dtype) and
// receives the buffers after the last round. `passes` picks the rounds of one phase:
// all_gather_only on an AllReduce config is the ZeRO parameter all-gather, starting from the
// slot each rank owns. Throws InputError when the config is invalid.
CollectiveTraffic run_collective(Backend& backend, const Config& config, BufferState& state,
                                 RingPasses passes = RingPasses::all);

// Bytes rank `rank` sends in one ring pass over `layout` (elements of `element_bytes` each):
// a reduce-scatter pass sends every slot but the one the rank ends up owning; an all-gather
// pass sends every slot but the one the next rank owns (it arrives last and goes no further).
// The owned slot is ring_owned_slot (core/schedule/schedule.h).
// Equals the engine's Traffic for those rounds; used where building the schedule for
// hundreds of ranks would be wasteful.
std::int64_t ring_pass_bytes_sent(const SlotLayout& layout, Order order, Phase phase, int rank,
                                  std::int64_t element_bytes);

}  // namespace ringviz
