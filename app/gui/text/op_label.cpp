#include "app/gui/text/op_label.h"

#include <vector>

#include "app/gui/text/strings.h"
#include "core/algorithms/registry.h"

namespace ringviz::gui {

const char* op_label(Op op) {
  const UiStrings& t = ui_strings();
  switch (op) {
    case Op::allgather: return t.op_allgather;
    case Op::reducescatter: return t.op_reducescatter;
    case Op::allreduce: return t.op_allreduce;
    // Named alike in both languages, as the three above are: the table's literal is the name.
    case Op::broadcast:
    case Op::alltoall:
    case Op::sendrecv: return op_display_name(op).data();
  }
  return t.op_allreduce;
}

std::string algorithm_op_label(Algorithm algorithm, Op op) {
  const AlgorithmUnit& unit = algorithm_unit(algorithm);
  const std::string algorithm_text(unit.label.empty() ? unit.name : unit.label.in(ui_language()));
  return algorithm_text + " " + op_label(op);
}

std::string lane_name(Algorithm algorithm, int lane) {
  const std::span<const Words> names = algorithm_unit(algorithm).lane_names;
  if (lane < 0 || static_cast<std::size_t>(lane) >= names.size()) return {};
  return std::string(names[static_cast<std::size_t>(lane)].in(ui_language()));
}

const char* partial_result(ReduceOp reduce, bool plural) {
  const UiStrings& t = ui_strings();
  const auto index = static_cast<std::size_t>(reduce);
  return plural ? t.reduction_partials[index] : t.reduction_partial[index];
}

}  // namespace ringviz::gui
