#include "app/gui/text/traffic_formula.h"

#include <algorithm>

#include "app/gui/text/op_label.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "core/algorithms/registry.h"

namespace ringviz::gui {

TrafficFormula traffic_formula(Language language, Algorithm algorithm, Op op, int ranks, double buffer_bytes,
                               int root) {
  return algorithm_unit(algorithm).traffic(language, op, ranks, root, buffer_bytes,
                                           algorithm_op_label(language, algorithm, op));
}

double formula_buffer_bytes(const Config& config) {
  const double element = static_cast<double>(dtype_size(config.dtype));
  return static_cast<double>(config.count) * element * (config.op == Op::allgather ? config.ranks : 1);
}

}  // namespace ringviz::gui
