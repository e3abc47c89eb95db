#pragma once
#include <cstdint>
#include <optional>

#include "core/engine/provenance.h"
#include "core/engine/session.h"
#include "core/model/buffers.h"
#include "core/model/layout.h"
#include "core/trace/trace_read.h"

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

// The first round (0: the inputs) whose recorded buffers differ from `session`'s, which runs
// `run.config`, else the first recorded output that differs from the session's at the end.
// Leaves the session at its last round.
struct RecordedMismatch {
  int round = 0;
  BufferDifference difference;
  bool in_outputs = false;  // `difference.element` indexes that rank's output
};
std::optional<RecordedMismatch> first_recorded_mismatch(const RecordedRun& run, Session& session);

}  // namespace ringviz
