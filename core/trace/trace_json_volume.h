#pragma once
// How much a `ringviz.trace/1` document prints, counted from the config before anything runs,
// so that `trace --format json` can refuse a document no one can read (README, "ringviz trace").
#include <cstdint>

#include "core/model/config.h"

namespace ringviz {

struct JsonTraceVolume {
  double values = 0;        // buffer values: the inputs, every round's buffers, the outputs
  double contributors = 0;  // rank numbers in every round's contributor sets (N^3 and more for a ring)
  double numbers() const { return values + contributors; }
};

// The numbers the document holds. Contributor sets follow the schedule alone (Provenance), so
// they are counted exactly by walking it without any buffer; once `stop_above` numbers are
// reached the walk stops and the count so far (already too many) is returned. A pipeline too
// large to walk quickly (thousands of pieces a slot on hundreds of GPUs) counts every set full.
JsonTraceVolume json_trace_volume(const Config& config, double stop_above);

}  // namespace ringviz
