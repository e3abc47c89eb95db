#include "core/trace/trace.h"

namespace ringviz {

Trace record_trace(Session& session) {
  session.reset();
  Trace trace;
  trace.config = session.config();
  trace.backend = session.backend().name();
  trace.layout = session.layout();
  trace.schedule = session.schedule();
  trace.traffic = session.traffic();
  trace.initial = session.buffers();
  trace.initial_provenance = session.provenance();
  while (!session.at_end()) {
    session.step_forward();
    const int index = session.round() - 1;
    trace.rounds.push_back({session.round(), session.schedule().rounds[static_cast<std::size_t>(index)],
                            session.buffers(), session.provenance(),
                            session.round_microseconds(index)});
  }
  trace.outputs = session.outputs();
  return trace;
}

}  // namespace ringviz
