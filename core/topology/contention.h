#pragma once
// The contention simulation (docs/architecture.md, "Topology and contention"): every transfer
// of a schedule routed over a topology's links, in simulated time.
//
// - Each GPU runs one worker per channel; a worker carries out its transfers one after the
//   other, in schedule order (waves, then list order), as one NCCL channel does its steps.
// - A transfer starts when its worker is free and its data is at the sender: every transfer of
//   an earlier round that wrote the same piece of the same slot at the sender has finished.
// - It pays α on the worker (the largest software α along its route), then its bytes flow over
//   the route. Flows that cross a link at the same time share it max-min fairly (progressive
//   filling, recomputed at every flow start and finish); a flow also never exceeds the
//   channel cap of the links it crosses. The worker is free once the last byte has left.
// - The bytes arrive after the route's summed hop latency. A reduce then folds them into the
//   receiver's piece, b·γ, after the earlier rounds' writes there and after folds into the same
//   piece that arrived first. The transfer is done when its bytes are stored or folded.
#include <vector>

#include "core/model/dtype.h"
#include "core/model/layout.h"
#include "core/schedule/rounds.h"
#include "core/topology/topology.h"

namespace ringviz {

// When one transfer happened, seconds from the start of the collective.
struct SimulatedTransfer {
  double start = 0;       // its worker took it up: α begins
  double flow_start = 0;  // its first byte left
  double flow_end = 0;    // its last byte left
  double arrival = 0;     // its last byte arrived
  double done = 0;        // stored, or folded in for a reduce
  double bytes = 0;
};

// One link over the collective.
struct LinkTraffic {
  std::vector<double> bytes_per_round;  // by schedule round (wave)
  int most_flows = 0;                   // the most transfers that crossed it at once
  double busy_seconds = 0;              // time with at least one flow on it
  double bytes = 0;
};

struct Simulation {
  double seconds = 0;
  // [round][transfer], parallel to Schedule::rounds; filled when asked for detail.
  std::vector<std::vector<SimulatedTransfer>> transfers;
  std::vector<double> round_end_seconds;  // the last transfer of each round done
  std::vector<LinkTraffic> links;            // parallel to Topology::links, with detail
};

// `routes` must be of `topology`, whose GPU count must be at least the schedule's ranks.
Simulation simulate_contention(const Schedule& schedule, const SlotLayout& layout, DType dtype,
                               const Topology& topology, const Routes& routes, bool detail);

}  // namespace ringviz
