#pragma once
// The registry's list (docs/architecture.md, "Algorithms: one unit each"): every algorithm
// ringviz runs, in the order menus, --help, comparisons and loops over kAllAlgorithms show
// them. Adding an algorithm is one entry here and its own unit, core/algorithms/<id>.cpp, which
// defines `const AlgorithmUnit& <id>_unit()`; registry.cpp reads this same list, so nothing is
// registered by static initialisers and a static library cannot drop a unit.
#include <cstdint>

// X(id): the enumerator, and the unit's function <id>_unit().
#define RINGVIZ_ALGORITHMS(X) \
  X(ring)                     \
  X(bidirectional_ring)       \
  X(naive)                    \
  X(direct)                   \
  X(rhd)                      \
  X(tree)                     \
  X(tree_pipelined)           \
  X(nvls)

namespace ringviz {

// core/model/config.h declares this enum without its values (Config only stores one); this is
// its definition. Value 0, the ring, is Config's default.
#define RINGVIZ_ALGORITHM_ENUMERATOR(id) id,
enum class Algorithm : std::uint8_t { RINGVIZ_ALGORITHMS(RINGVIZ_ALGORITHM_ENUMERATOR) };
#undef RINGVIZ_ALGORITHM_ENUMERATOR

#define RINGVIZ_ALGORITHM_VALUE(id) Algorithm::id,
inline constexpr Algorithm kAllAlgorithms[] = {RINGVIZ_ALGORITHMS(RINGVIZ_ALGORITHM_VALUE)};
#undef RINGVIZ_ALGORITHM_VALUE

static_assert(Algorithm{} == Algorithm::ring, "Config's default algorithm is the first value");

}  // namespace ringviz
