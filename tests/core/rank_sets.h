#pragma once
// Contributor sets written as lists of ranks, for the label and provenance tests.
#include <initializer_list>

#include "core/engine/rank_set.h"

namespace ringviz {

inline RankSet ranks_of(std::initializer_list<int> ranks) {
  RankSet set;
  for (int rank : ranks) set.set(static_cast<std::size_t>(rank));
  return set;
}

}  // namespace ringviz
