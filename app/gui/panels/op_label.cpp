#include "app/gui/panels/op_label.h"

#include <vector>

#include "app/gui/text/strings.h"

namespace ringviz::gui {

const char* op_label(Op op) {
  const UiStrings& t = ui_strings();
  return op == Op::allgather ? t.op_allgather : op == Op::reducescatter ? t.op_reducescatter : t.op_allreduce;
}

std::string algorithm_op_label(Algorithm algorithm, Op op) {
  const std::string algorithm_text =
      algorithm == Algorithm::ring ? ui_strings().ring_algorithm_title : std::string(algorithm_name(algorithm));
  return algorithm_text + " " + op_label(op);
}

std::string reduction_label(const Config& config, const RankSet& contributors, int slot) {
  const ReduceOp reduce = config.reduce;
  const int terms = static_cast<int>(contributors.count());
  // avg adds like sum until the completing transfer divides by N, so its partial results are sums.
  if (config.op == Op::allgather || reduce == ReduceOp::sum || terms < 2 ||
      (reduce == ReduceOp::avg && terms < config.ranks))
    return slot_label(config.op, contributors, slot);
  std::vector<int> ranks;
  for (int rank = 0; rank < kMaxRanks; ++rank)
    if (contributors.test(static_cast<std::size_t>(rank))) ranks.push_back(rank);
  const bool product = reduce == ReduceOp::prod;
  const std::string separator = product ? "\u00d7" : ",";
  const bool compressed = ranks.size() > 4;
  std::string inside;
  if (compressed) {
    inside = term_label(ranks.front(), slot) + separator + "\u2026" + separator + term_label(ranks.back(), slot);
  } else {
    for (int rank : ranks) inside += (inside.empty() ? "" : separator) + term_label(rank, slot);
  }
  const char* function = reduce == ReduceOp::max ? "max" : reduce == ReduceOp::min ? "min" : "mean";
  std::string label = product ? inside : std::string(function) + "(" + inside + ")";
  if (compressed) label += " (" + std::to_string(ranks.size()) + ")";
  return label;
}

const char* partial_result(ReduceOp reduce, bool plural) {
  const UiStrings& t = ui_strings();
  const auto index = static_cast<std::size_t>(reduce);
  return plural ? t.reduction_partials[index] : t.reduction_partial[index];
}

}  // namespace ringviz::gui
