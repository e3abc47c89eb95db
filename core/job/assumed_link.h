#pragma once
// The link a job's collectives most likely ran over, from what the trace says of the job (its
// GPUs, its backend): the peak a caption holds a measured bus bandwidth against. It is an
// assumption, and every caption that uses it says so and why.
#include <string>

#include "core/run/job.h"
#include "core/topology/link_model.h"

namespace ringviz {

struct AssumedLink {
  const LinkModel* link = nullptr;  // null: no GPU link (gloo on the CPU, an unknown GPU)
  std::string why;                  // "A100: NVLink 3 through NVSwitch"
};

AssumedLink assumed_link(const JobInfo& info);

}  // namespace ringviz
