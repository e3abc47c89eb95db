#pragma once
// The bytes one GPU sends in a collective, as a formula of N and M for the algorithm that runs
// (the traffic panel's first lines and the caption's last), in `language`. The
// algorithm's unit words it (core/algorithms/).
#include "core/algorithms/algorithm_unit.h"
#include "core/model/config.h"

namespace ringviz::gui {

// `buffer_bytes` is M: one GPU's buffer, N x count x element size for AllGather.
// `root`: a broadcast's source GPU.
TrafficFormula traffic_formula(Language language, Algorithm algorithm, Op op, int ranks, double buffer_bytes,
                               int root = 0);

// M for a configuration.
double formula_buffer_bytes(const Config& config);

}  // namespace ringviz::gui
