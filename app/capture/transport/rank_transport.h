#pragma once
// One process's rank of a captured ring (docs/architecture.md, "Capture"). A transport carries
// out this rank's part of each planned round: it receives every transfer into its own
// destinations into a staging buffer, sends its slots to the ranks that read them, and folds
// the staged transfers into each destination in the plan's order with the same element
// arithmetic as the CPU backend, so the buffers stay bit-identical to the in-process engine.
// Implementations name no MPI, CUDA or NCCL type in their headers.
#include <cstdint>
#include <memory>
#include <string>

#include "core/schedule/collective_shape.h"
#include "core/model/buffers.h"
#include "core/schedule/round_plan.h"
#include "core/schedule/rounds.h"

namespace ringviz::capture {

// One rank, one round, in seconds on this process's steady clock (capture_clock_seconds()).
struct RoundSpans {
  double start = 0;    // entered the round
  double posted = 0;   // every send and receive of the round posted (after the --delay sleep)
  double arrived = 0;  // every receive complete: the wait for the peers ends
  double end = 0;      // reductions done, the buffer final for the round
  double delay = 0;    // seconds slept by --delay before posting (0 otherwise)
  std::int64_t bytes_sent = 0;
  std::int64_t bytes_received = 0;
};

class RankTransport {
 public:
  virtual ~RankTransport() = default;

  // "mpi", "nccl": config.backend and capture.transport of the document.
  virtual std::string name() const = 0;
  // The device this rank runs on (CUDA device index), or -1 for host memory.
  virtual int device() const { return -1; }
  // Allocates this rank's working buffer for `shape` and fills it from `initial`.
  virtual void load(const CollectiveShape& shape, int rank, const ByteBuffer& initial) = 0;
  // This rank's part of one round: `plan` is RoundPlanner's plan of `round` for all ranks;
  // the transport acts only on the transfers this rank sends or receives. Sleeps
  // `delay_seconds` before posting its sends (the --delay straggler).
  virtual RoundSpans execute(const RoundPlan& plan, const Round& round, double delay_seconds) = 0;
  // Copies this rank's working buffer to the host.
  virtual void fetch(ByteBuffer& buffer) = 0;
};

// The clock every RoundSpans is measured on: a steady clock, in seconds.
double capture_clock_seconds();

}  // namespace ringviz::capture
