#pragma once
// PyTorch profiler traces, one per rank, as one job (docs/job-format.md): each collective from
// its `record_param_comms` op and the NCCL kernel it launched, ranks matched per process group
// by sequence, the annotated phases and the GPU's busy time as compute, every rank on one
// clock.
#include <string>
#include <vector>

#include "core/run/job.h"
#include "core/kineto/kineto_trace.h"

namespace ringviz {

// Throws InputError naming the file (and event) for anything that cannot be one job: two
// traces of one rank, of different world sizes or NCCL versions, a collective whose sizes
// contradict its group, ranks whose collectives do not match, no collective at all.
Job import_kineto_traces(const std::vector<KinetoRankTrace>& traces);

}  // namespace ringviz
