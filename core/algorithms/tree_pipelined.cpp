// tree-pipelined: the binary tree of tree.cpp, pipelined: every hop moves one slot per round
// and slot s + 1 follows one round behind slot s, so all levels work at once. Few messages per
// round like the tree, but each is a slot rather than the whole buffer.
#include "core/algorithms/tree.h"
#include "core/algorithms/unit_words.h"
#include "core/schedule/pipeline.h"

namespace ringviz {

namespace {

constexpr Words kPlan{
    "The same binary tree, pipelined: slots go up one hop a round, one behind the other, so all levels "
    "work at once; then back down. %d rounds.",
    "同一棵二叉树的流水线版：分片一个接一个每轮上行一跳，各层同时工作；再同样传下来。共 %d 轮。"};
constexpr Words kUp{
    "Slots climb the tree one hop a round: %d GPU(s) each send one slot up to their parent (GPU %d sends "
    "slot %d to GPU %d, ...), which folds it in (reduce).",
    "分片沿树每轮上行一跳：%d 张 GPU 各把一个分片发给父节点（GPU %d 把分片 %d 发给 GPU %d，……），父节点合并进来（归约）。"};
constexpr Words kDown{
    "Finished slots go down the tree one hop a round: %d GPU(s) each copy one slot to their children "
    "(GPU %d sends slot %d to GPU %d, ...).",
    "算完的分片沿树每轮下行一跳：%d 张 GPU 各把一个分片拷贝给子节点（GPU %d 把分片 %d 发给 GPU %d，……）。"};

std::string pipelined_tree_plan(const CaptionContext& c) {
  return formatted(kPlan.in(c.language).data(), lock_step_round_count(c.schedule));
}

std::string pipelined_tree_round(const CaptionContext& c) {
  const RoundShape shape = shape_of(c.schedule.rounds[static_cast<std::size_t>(c.round - 1)]);
  if (shape.first == nullptr) return "";
  return formatted((shape.reduces ? kUp : kDown).in(c.language).data(), shape.senders, shape.first->src,
                   shape.first->slot, shape.first->dst);
}

constexpr Words kAllWords[] = {kPlan, kUp, kDown};

}  // namespace

const AlgorithmUnit& tree_pipelined_unit() {
  static const AlgorithmUnit unit{
      .id = Algorithm::tree_pipelined,
      .name = "tree-pipelined",
      .aliases = "",
      .help = "",
      .title = {"Pipelined tree", "流水线树形"},
      .menu_name = {},
      .label = {},
      .chart_colour = {236, 164, 64},
      .reduces_into_one_gpu = true,
      .supports = tree_supports,
      .rounds = [](const Config& config) { return binary_tree_rounds(config, true); },
      .cost_shape = [](Op) -> std::string_view {
        return "4(D+N-1)·(α + n/N·β) + 2(D+N-1)·n/N·γ, D = log2(N+1) - 1";
      },
      .cost_note = kFullTreeNote,
      .traffic = tree_traffic,
      .captions = {.start = pipelined_tree_plan, .round = pipelined_tree_round, .phase = tree_phase},
      .words = kAllWords,
  };
  return unit;
}

}  // namespace ringviz
