#pragma once
#include <cstdint>
#include <optional>

#include "core/engine/provenance.h"
#include "core/model/buffers.h"
#include "core/model/layout.h"

namespace ringviz {

// Where a recorded buffer first disagrees with the in-process engine's: a real finding when a
// capture replays (docs/architecture.md, "Replaying a recorded run").
struct BufferDifference {
  int rank = 0;
  std::int64_t element = 0;
  ElementValue recorded;
  ElementValue computed;
};

// Compares element values, as a document can hold them: NaN equals NaN whatever its bits (the
// document writes "nan"), and slots nothing has reached yet (`provenance` empty) are skipped.
std::optional<BufferDifference> first_difference(const BufferState& recorded, const BufferState& computed,
                                                 const SlotLayout& layout, const Provenance& provenance);

}  // namespace ringviz
