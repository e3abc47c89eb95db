#pragma once
// Integer sum, prod and avg wrap around as on a GPU (docs/architecture.md, "Collective
// semantics"); a result that wrapped is correct by that rule but rarely what a user meant, so
// the front ends say so: the CLI on stderr, the GUI in a notice.
#include <cstdint>
#include <optional>
#include <string>

#include "core/model/buffers.h"
#include "core/model/config.h"

namespace ringviz {

struct IntegerOverflow {
  std::int64_t element = 0;  // the first element (index into every GPU's input) that wraps
  std::string exact;         // its exact reduction ("10000000000"; for avg, the exact sum)
  std::string wrapped;       // what the collective computes there, by the wrapping rule
};

// The first element whose exact reduction over every GPU's input (a 128-bit reference, not
// the engine's arithmetic) does not fit the integer type: for avg, the sum before the
// division. Nothing for floats, max, min, AllGather (which reduces nothing) and one GPU.
// `initial` holds every rank's working buffer before round 1 (make_initial_state).
std::optional<IntegerOverflow> first_integer_overflow(const Config& config, const BufferState& initial);

// "i32 prod overflows at element 0: the exact product 10000000000 does not fit i32, so it wraps
// around to 1410065408 (two's complement, as on a GPU)", in English (the CLI's stderr line).
std::string integer_overflow_message(const Config& config, const IntegerOverflow& overflow);

}  // namespace ringviz
