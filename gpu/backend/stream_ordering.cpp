#include "gpu/backend/stream_ordering.h"

namespace ringviz::gpu {

void StreamOrdering::begin(int ranks) {
  done_recorded_.assign(static_cast<std::size_t>(ranks), false);
  readers_since_last_work_.assign(static_cast<std::size_t>(ranks), {});
}

void StreamOrdering::after_writing(int receiver, std::span<const int> sources) {
  done_recorded_[static_cast<std::size_t>(receiver)] = true;
  for (int source : sources)
    if (source != receiver) readers_since_last_work_[static_cast<std::size_t>(source)].push_back(receiver);
}

}  // namespace ringviz::gpu
