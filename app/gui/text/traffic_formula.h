#pragma once
// The bytes one GPU sends in a collective, as a formula of N and M for the algorithm that runs
// (the traffic panel's first lines and the caption's last), in the current UI language.
#include <string>

#include "core/model/config.h"

namespace ringviz::gui {

struct TrafficFormula {
  std::string formula;  // "rhd AllReduce sends, per GPU:  2(N-1)/N x M"
  std::string values;   // the same with this run's N and M: "= 2 x (4-1)/4 x 64 B = 96 B"
  std::string note;     // when the formula holds only for some N; empty otherwise
  double busiest_bytes = 0;  // what the busiest GPU sends, by the formula
};

// `buffer_bytes` is M: one GPU's buffer, N x count x element size for AllGather.
TrafficFormula traffic_formula(Algorithm algorithm, Op op, int ranks, double buffer_bytes);

// M for a configuration.
double formula_buffer_bytes(const Config& config);

}  // namespace ringviz::gui
