#pragma once
// A run's collectives, each across its group: the ranks of a group issue their collectives on
// it in the same order (as NCCL requires of a communicator), so the k-th instance on a group
// in every member's timeline is one collective (docs/architecture.md, "The Run model").
#include <vector>

#include "core/model/config.h"
#include "core/run/run.h"

namespace ringviz {

struct RunCollective {
  int group = 0;     // index into Run::groups
  int sequence = 0;  // 0-based: the group's sequence-th collective
  // members[i]: the instance of the group's i-th rank; null where that rank was not traced.
  // Points into the Run, which must outlive it.
  std::vector<const CollectiveInstance*> members;

  // The first traced member's instance: a collective exists because one rank lists it.
  const CollectiveInstance& first() const;
};

// Every collective of `run`, group by group in the run's order, each group's in sequence.
// Instances whose group does not exist, or that lists a rank outside it, belong to no
// collective; validate(run) refuses such a run first.
std::vector<RunCollective> run_collectives(const Run& run);

// The Config a Session steps `collective` with: its group's size as ranks, the first traced
// instance's op, sizes and schedule, and its recording's inputs where it was recorded (else
// the default pattern: a run without data shows the schedule's contributors).
Config collective_config(const Run& run, const RunCollective& collective);

}  // namespace ringviz
