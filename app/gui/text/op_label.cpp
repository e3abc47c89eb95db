#include "app/gui/text/op_label.h"

#include <vector>

#include "app/gui/text/strings.h"
#include "core/algorithms/registry.h"

namespace ringviz::gui {

const char* op_label(Language language, Op op) {
  const UiStrings& t = ui_strings_for(language);
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

std::string algorithm_op_label(Language language, Algorithm algorithm, Op op) {
  const AlgorithmUnit& unit = algorithm_unit(algorithm);
  const std::string algorithm_text(unit.label.empty() ? unit.name : unit.label.in(language));
  return algorithm_text + " " + op_label(language, op);
}

std::string lane_name(Language language, Algorithm algorithm, int lane) {
  const std::span<const Words> names = algorithm_unit(algorithm).lane_names;
  if (lane < 0 || static_cast<std::size_t>(lane) >= names.size()) return {};
  return std::string(names[static_cast<std::size_t>(lane)].in(language));
}

const char* partial_result(Language language, ReduceOp reduce, bool plural) {
  const UiStrings& t = ui_strings_for(language);
  const auto index = static_cast<std::size_t>(reduce);
  return plural ? t.reduction_partials[index] : t.reduction_partial[index];
}

}  // namespace ringviz::gui
