#pragma once
// `ringviz capture --iters K` (docs/architecture.md, "Capture"): per size, K repetitions of the
// whole collective through the transport, timed without snapshots, beside the library's own
// collective at the same size, as an nccl-tests table on rank 0's stdout. Every row's outputs
// are checked once, outside the timed loop.
#include "app/capture/capture_options.h"
#include "app/capture/transport/rank_transport.h"

namespace ringviz::capture {

// Collective. The exit code every rank returns: 0, or 1 when an output was wrong.
int print_iteration_table(const CaptureOptions& options, RankTransport& transport);

}  // namespace ringviz::capture
