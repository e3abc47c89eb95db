#include "core/engine/collective.h"

#include <stdexcept>
#include <string>

#include "core/algorithms/registry.h"
#include "core/schedule/schedule.h"
#include "core/engine/traffic.h"

namespace ringviz {

namespace {

bool selected(RingPasses passes, Phase phase) {
  switch (passes) {
    case RingPasses::all: return true;
    case RingPasses::reduce_scatter_only: return phase == Phase::reduce_scatter;
    case RingPasses::all_gather_only: return phase == Phase::all_gather;
  }
  return false;
}

}  // namespace

CollectiveTraffic run_collective(Backend& backend, const Config& config, BufferState& state,
                                 RingPasses passes) {
  validate_or_throw(config);
  const SlotLayout layout = make_layout(config);
  // A mismatched buffer is a programming error in the caller, not bad user input.
  if (state.dtype != config.dtype || state.elements_per_rank != layout.elements_per_rank ||
      state.ranks.size() != static_cast<std::size_t>(config.ranks))
    throw std::invalid_argument(
        "run_collective: the buffers do not match the config (expected " +
        std::to_string(config.ranks) + " ranks of " + std::to_string(layout.elements_per_rank) +
        " " + std::string(dtype_name(config.dtype)) + " elements)");
  const Schedule schedule = make_schedule(config);
  const Traffic traffic = compute_traffic(schedule, layout, config.dtype, config.ranks);

  CollectiveTraffic moved;
  moved.sent.assign(static_cast<std::size_t>(config.ranks), 0);
  moved.received.assign(static_cast<std::size_t>(config.ranks), 0);
  backend.load({config.dtype, config.reduce, config.ranks, layout}, state);
  for (int index = 0; index < schedule.round_count(); ++index) {
    const Round& round = schedule.rounds[static_cast<std::size_t>(index)];
    if (!selected(passes, round.phase)) continue;
    backend.execute(round);
    for (int rank = 0; rank < config.ranks; ++rank) {
      const auto r = static_cast<std::size_t>(rank);
      moved.sent[r] += traffic.sent[static_cast<std::size_t>(index)][r];
      moved.received[r] += traffic.received[static_cast<std::size_t>(index)][r];
    }
  }
  backend.synchronize();
  backend.fetch(state);
  return moved;
}

std::int64_t ring_pass_bytes_sent(const SlotLayout& layout, Order order, Phase phase, int rank,
                                  std::int64_t element_bytes) {
  const int ranks = layout.size();
  const int skipped = phase == Phase::reduce_scatter
                          ? ring_owned_slot(order, rank, ranks)
                          : ring_owned_slot(order, (rank + 1) % ranks, ranks);
  if (ranks <= 1) return 0;
  return (layout.elements_per_rank - layout[skipped].count) * element_bytes;
}

}  // namespace ringviz
