#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/model/buffers.h"
#include "core/engine/provenance.h"
#include "core/engine/session.h"
#include "core/trace/capture_record.h"

namespace ringviz {

// A whole collective, round by round: what `ringviz trace` prints and what tests compare.
struct TraceRound {
  int number = 0;  // 1-based, as printed
  Round round;
  BufferState buffers;    // after the round
  Provenance provenance;  // after the round
  std::optional<double> microseconds;
};

// Everything but the rounds is known before round 1 (outputs: once the last round is done).
// `rounds` is filled only by record_trace(); a streamed trace leaves it empty. A capture
// (`ringviz capture`) may leave `initial`, a round's buffers and `outputs` empty where it
// did not gather them, and adds what it measured in `capture`.
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
  std::optional<CaptureRecord> capture;
};

// Receives a run as it happens, so that a writer holds one round at a time, never the
// history (docs/architecture.md, "How a round flows"). `trace` is the same object in every
// call: its header in begin(), its outputs added before end().
class TraceListener {
 public:
  virtual ~TraceListener() = default;
  virtual void begin(const Trace& trace) = 0;
  virtual void round(const Trace& trace, const TraceRound& round) = 0;
  virtual void end(const Trace& trace) = 0;
};

// Resets the session, steps it to the end and hands every round to `listener` as it is done.
void stream_trace(Session& session, TraceListener& listener);

// The same run kept whole in memory: for the small sizes tests look at.
Trace record_trace(Session& session);

// Replays a recorded trace to a listener, as stream_trace() would have.
void replay_trace(const Trace& trace, TraceListener& listener);

}  // namespace ringviz
