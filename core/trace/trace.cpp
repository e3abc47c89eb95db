#include "core/trace/trace.h"

namespace ringviz {

namespace {

class TraceRecorder : public TraceListener {
 public:
  explicit TraceRecorder(Trace& target) : target_(target) {}
  void begin(const Trace& trace) override { target_ = trace; }
  void round(const Trace&, const TraceRound& round) override { target_.rounds.push_back(round); }
  void end(const Trace& trace) override { target_.outputs = trace.outputs; }

 private:
  Trace& target_;
};

}  // namespace

void stream_trace(Session& session, TraceListener& listener) {
  session.reset();
  Trace trace;
  trace.config = session.config();
  trace.backend = session.backend().name();
  trace.layout = session.layout();
  trace.schedule = session.schedule();
  trace.traffic = session.traffic();
  trace.initial = session.buffers();
  trace.initial_provenance = session.provenance();
  listener.begin(trace);
  TraceRound current;
  while (!session.at_end()) {
    session.step_forward();
    const int index = session.round() - 1;
    current.number = session.round();
    current.round = session.schedule().rounds[static_cast<std::size_t>(index)];
    current.buffers = session.buffers();
    current.provenance = session.provenance();
    current.microseconds = session.round_microseconds(index);
    listener.round(trace, current);
  }
  trace.outputs = session.outputs();
  listener.end(trace);
}

Trace record_trace(Session& session) {
  Trace trace;
  TraceRecorder recorder(trace);
  stream_trace(session, recorder);
  return trace;
}

void replay_trace(const Trace& trace, TraceListener& listener) {
  listener.begin(trace);
  for (const TraceRound& round : trace.rounds) listener.round(trace, round);
  listener.end(trace);
}

}  // namespace ringviz
