#pragma once
// One captured collective (docs/architecture.md, "Capture"): every rank executes the schedule
// round by round through its RankTransport, a barrier before each timed round so that rounds
// start together; outside the timed region rank 0 gathers the spans and, as the snapshot mode
// says, the buffers, and hands the run to a TraceListener as rounds finish.
#include <string>
#include <vector>

#include "app/capture/capture_options.h"
#include "app/capture/mpi/clock_alignment.h"
#include "app/capture/transport/rank_transport.h"
#include "core/trace/trace.h"

namespace ringviz::capture {

struct CaptureContext {
  std::string command;                   // "ringviz capture ..." as the ranks were started
  SnapshotMode snapshot = SnapshotMode::rounds;
  std::vector<ClockOffset> clocks;       // rank 0: measure_clock_offsets()
  std::vector<std::string> hosts;        // rank 0: gather_host_names()
};

// Collective. `listener` is used on rank 0 only (may be null elsewhere). With
// options.check_engine, rank 0 compares every gathered round with the in-process CPU engine
// and returns the first difference as a sentence (empty when all rounds agree).
std::string capture_collective(const CaptureOptions& options, const CaptureContext& context,
                               RankTransport& transport, TraceListener* listener);

}  // namespace ringviz::capture
