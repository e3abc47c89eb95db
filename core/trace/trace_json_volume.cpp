#include "core/trace/trace_json_volume.h"

#include "core/engine/provenance.h"
#include "core/model/layout.h"
#include "core/schedule/schedule.h"

namespace ringviz {

JsonTraceVolume json_trace_volume(const Config& config, double stop_above) {
  const Schedule schedule = make_schedule(config);
  const int slots = make_layout(config).size();
  JsonTraceVolume volume;
  // The inputs, every round and the outputs each print every element of every rank.
  volume.values = (schedule.round_count() + 2.0) * config.ranks * static_cast<double>(buffer_elements(config));
  if (volume.numbers() > stop_above) return volume;
  // A pipelined slot's set is gathered from all its pieces: past this much work (256 GPUs cut
  // into thousands of pieces) every set is counted as full instead, an upper bound.
  constexpr double kMostPieceVisits = 1 << 27;
  const double pieces = static_cast<double>(config.channels) * config.slices;
  const double sets = static_cast<double>(schedule.round_count()) * config.ranks * slots;
  if (sets * pieces > kMostPieceVisits) {
    volume.contributors = sets * config.ranks;
    return volume;
  }
  Provenance provenance = Provenance::initial(config);
  for (const Round& round : schedule.rounds) {
    provenance.apply(round);
    for (int rank = 0; rank < config.ranks; ++rank)
      for (int slot = 0; slot < slots; ++slot) volume.contributors += static_cast<double>(provenance.at(rank, slot).count());
    if (volume.numbers() > stop_above) break;
  }
  return volume;
}

}  // namespace ringviz
