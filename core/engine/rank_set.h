#pragma once
#include <bitset>

#include "core/model/config.h"

namespace ringviz {

// A set of ranks, one bit per rank: the contributors folded into a value.
using RankSet = std::bitset<kMaxRanks>;

}  // namespace ringviz
