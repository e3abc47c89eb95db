// direct: every pair of GPUs talks at once. One round per pass, N - 1 messages per GPU per
// round; each message is small, so latency (one α per message) dominates at large N.
#include "core/algorithms/algorithm_unit.h"
#include "core/algorithms/unit_words.h"
#include "core/schedule/schedule_steps.h"

namespace ringviz {

using namespace schedule_steps;

namespace {

// Every GPU r sends slot j straight to GPU j, which folds the N - 1 arrivals in sender order;
// the last sender other than j completes slot j.
Round direct_reduce_scatter(int n) {
  Round round{Phase::reduce_scatter, {}};
  for (int src = 0; src < n; ++src)
    for (int dst = 0; dst < n; ++dst) {
      if (dst == src) continue;
      const int last_sender = dst == n - 1 ? n - 2 : n - 1;
      send_reduce(round, src, dst, dst, src == last_sender);
    }
  return round;
}

// Every GPU r sends its slot r (its block, or the slot it reduced) to every other GPU.
Round direct_all_gather(int n) {
  Round round{Phase::all_gather, {}};
  for (int src = 0; src < n; ++src)
    for (int dst = 0; dst < n; ++dst)
      if (dst != src) send_copy(round, src, dst, src);
  return round;
}

Schedule direct_rounds(const Config& config) {
  const int n = config.ranks;
  Schedule schedule;
  schedule.owned_slot = identity_owners(n);
  if (n == 1) return schedule;
  if (config.op != Op::allgather) schedule.rounds.push_back(direct_reduce_scatter(n));
  if (config.op != Op::reducescatter) schedule.rounds.push_back(direct_all_gather(n));
  return schedule;
}

std::string_view direct_cost(Op op) {
  return op == Op::allgather       ? "(N-1)α + (N-1)·nβ"
         : op == Op::reducescatter ? "(N-1)α + (N-1)/N·nβ + (N-1)/N·nγ"
                                   : "2(N-1)α + 2(N-1)/N·nβ + (N-1)/N·nγ";
}

constexpr Words kPlanAllGather{
    "In one round every GPU sends its block straight to each other GPU: N-1 messages each, all at once.",
    "只需一轮：每张 GPU 把自己的块直接发给其他每张 GPU，每张同时发 N-1 条消息。"};
constexpr Words kPlanReduceScatter{
    "In one round every GPU sends each slot straight to the GPU that owns it, which reduces what "
    "arrives: N-1 messages each.",
    "只需一轮：每张 GPU 把每个分片直接发给负责它的 GPU，由后者归约；每张发 N-1 条消息。"};
constexpr Words kPlanAllReduce{
    "Round 1 sends every slot straight to its owner, which reduces it; round 2 sends every finished "
    "slot to every GPU: N-1 messages per GPU each time.",
    "第 1 轮把每个分片直接发给负责它的 GPU 归约；第 2 轮把算完的分片直接发给所有 GPU。每张 GPU 每轮发 N-1 条消息。"};
constexpr Words kRoundReduce{
    "Every GPU sends each slot straight to its owner (slot j to GPU j), %d messages at once; the owner "
    "folds the %d arrivals in sender order (reduce).",
    "每张 GPU 把每个分片直接发给负责它的 GPU（分片 j 发给 GPU j），同时发 %d 条消息；负责方按发送方顺序合并收到的 %d 份（归约）。"};
constexpr Words kRoundGather{
    "Every GPU r sends its slot r straight to each of the %d other GPUs at once, which store it (copy).",
    "每张 GPU r 把分片 r 同时直接发给其余 %d 张 GPU，对方原样保存（拷贝）。"};


std::string direct_plan(const CaptionContext& c) {
  const Op op = c.config.op;
  return std::string(
      (op == Op::allgather ? kPlanAllGather : op == Op::reducescatter ? kPlanReduceScatter : kPlanAllReduce)
          .in(c.language));
}

std::string direct_round(const CaptionContext& c) {
  const RoundShape shape = shape_of(c.schedule.rounds[static_cast<std::size_t>(c.round - 1)]);
  if (shape.first == nullptr) return "";
  return shape.reduces ? formatted(kRoundReduce.in(c.language).data(), shape.most_messages,
                                   shape.receivers > 0 ? shape.senders - 1 : 0)
                       : formatted(kRoundGather.in(c.language).data(), shape.most_messages);
}

constexpr Words kAllWords[] = {kPlanAllGather, kPlanReduceScatter, kPlanAllReduce, kRoundReduce, kRoundGather};

}  // namespace

const AlgorithmUnit& direct_unit() {
  static const AlgorithmUnit unit{
      .id = Algorithm::direct,
      .name = "direct",
      .aliases = "",
      .help = "",
      .title = {"Direct (every pair at once)", "直连（所有 GPU 两两同时交换）"},
      .menu_name = {},
      .label = {},
      .chart_colour = {228, 88, 104},
      .supports = is_gather_or_reduce,
      .rounds = direct_rounds,
      .cost_shape = direct_cost,
      .cost_note = {},
      .traffic = pass_traffic_formula,
      .captions = {.start = direct_plan, .round = direct_round},
      .words = kAllWords,
  };
  return unit;
}

}  // namespace ringviz
