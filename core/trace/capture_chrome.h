#pragma once
// A captured run (`ringviz capture --format chrome`) as Chrome trace events for Perfetto
// (docs/architecture.md, "Capture"): one track per rank, one slice per round from the rank's
// start to its end, and inside it the rank's own phases as slices of their own: the --delay
// sleep, the wait for its peers (posted to arrived) and the reduction (arrived to end). Times
// are the capture's, on rank 0's clock.
#include <ostream>

#include "core/trace/trace.h"

namespace ringviz {

// Writes everything at end(): the capture block is complete only then. Holds no buffers.
class CaptureChromeWriter : public TraceListener {
 public:
  explicit CaptureChromeWriter(std::ostream& out) : out_(out) {}
  void begin(const Trace&) override {}
  void round(const Trace&, const TraceRound&) override {}
  void end(const Trace& trace) override;

 private:
  std::ostream& out_;
};

}  // namespace ringviz
