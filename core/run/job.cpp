#include "core/run/job.h"

namespace ringviz {

std::vector<int> untraced_ranks(const Run& run) {
  std::vector<int> ranks;
  for (int rank = 0; rank < run.world_size(); ++rank)
    if (!run.ranks[static_cast<std::size_t>(rank)].traced) ranks.push_back(rank);
  return ranks;
}

}  // namespace ringviz
