#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/model/buffers.h"
#include "core/engine/provenance.h"
#include "core/engine/session.h"

namespace ringviz {

// A whole collective, recorded round by round: what `ringviz trace` prints and what tests
// compare. Holds every round's buffers, so it is meant for sizes a person reads.
struct TraceRound {
  int number = 0;  // 1-based, as printed
  Round round;
  BufferState buffers;    // after the round
  Provenance provenance;  // after the round
  std::optional<double> microseconds;
};

struct Trace {
  Config config;
  std::string backend;
  SlotLayout layout;
  Schedule schedule;
  Traffic traffic;
  BufferState initial;
  Provenance initial_provenance;
  std::vector<TraceRound> rounds;
  std::vector<ByteBuffer> outputs;
};

// Resets the session and steps it to the end, recording every round.
Trace record_trace(Session& session);

}  // namespace ringviz
