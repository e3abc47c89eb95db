// naive: the first idea anyone has. Every GPU ships its whole buffer to GPU 0, GPU 0 does all
// the reducing, then ships the result back. Two rounds, but GPU 0's link carries N - 1
// buffers each way: the hot spot the ring removes.
#include <algorithm>

#include "core/algorithms/algorithm_unit.h"
#include "core/algorithms/unit_words.h"
#include "core/schedule/pipeline.h"
#include "core/schedule/schedule_steps.h"

namespace ringviz {

namespace {

using namespace schedule_steps;

Schedule naive_rounds(const Config& config) {
  const int n = config.ranks;
  Schedule schedule;
  schedule.owned_slot = identity_owners(n);
  if (n == 1) return schedule;

  if (config.op == Op::allgather) {
    // step 0: every GPU hands its block to GPU 0.
    Round gather{Phase::all_gather, {}};
    for (int rank = 1; rank < n; ++rank) send_copy(gather, rank, 0, rank);
    // step 1: GPU 0 hands every GPU the blocks it does not have yet.
    Round scatter{Phase::all_gather, {}};
    for (int rank = 1; rank < n; ++rank)
      for (int slot = 0; slot < n; ++slot)
        if (slot != rank) send_copy(scatter, 0, rank, slot);
    schedule.rounds = {std::move(gather), std::move(scatter)};
    return schedule;
  }

  // step 0: every GPU pushes every slot to GPU 0, which folds them in rank order
  // (a0, then b0 + a0, then c0 + (b0 + a0) ...); GPU N - 1's slot is the last one missing.
  Round reduce{Phase::reduce_scatter, {}};
  for (int rank = 1; rank < n; ++rank)
    for (int slot = 0; slot < n; ++slot) send_reduce(reduce, rank, 0, slot, rank == n - 1);
  schedule.rounds.push_back(std::move(reduce));

  // step 1: GPU 0 sends the result back: every slot (AllReduce) or slot r to GPU r
  // (ReduceScatter, which is still part of the reduce-scatter).
  const bool all = config.op == Op::allreduce;
  Round back{all ? Phase::all_gather : Phase::reduce_scatter, {}};
  for (int rank = 1; rank < n; ++rank)
    for (int slot = 0; slot < n; ++slot)
      if (all || slot == rank) send_copy(back, 0, rank, slot);
  schedule.rounds.push_back(std::move(back));
  return schedule;
}

std::string_view naive_cost(Op op) {
  return op == Op::allgather       ? "2(N-1)α + N(N-1)·nβ"
         : op == Op::reducescatter ? "2(N-1)α + (N-1)(N+1)/N·nβ + (N-1)·nγ"
                                   : "2(N-1)α + 2(N-1)·nβ + (N-1)·nγ";
}

constexpr Words kPlanAllGather{
    "In %d rounds every GPU hands its block to GPU 0, which sends each GPU the blocks it lacks: "
    "GPU 0's link carries nearly all.",
    "共 %d 轮：每张 GPU 把自己的块交给 GPU 0，GPU 0 再把缺少的块发给各张 GPU；几乎所有数据都经过 GPU 0 的链路。"};
constexpr Words kPlanReduceScatter{
    "In %d rounds every GPU sends its buffer to GPU 0, which reduces everything and hands each GPU "
    "its slot: GPU 0's link carries N-1 buffers.",
    "共 %d 轮：每张 GPU 把缓冲区发给 GPU 0，由它完成全部归约，再把各自的分片分给各张 GPU；GPU 0 的链路承载 N-1 份缓冲区。"};
constexpr Words kPlanAllReduce{
    "In %d rounds every GPU sends its buffer to GPU 0, which reduces everything and sends the result "
    "back: N-1 buffers each way on GPU 0's link.",
    "共 %d 轮：每张 GPU 把缓冲区发给 GPU 0，由它完成全部归约并把结果发回；GPU 0 的链路每个方向承载 N-1 份缓冲区。"};
constexpr Words kToRootReduce{
    "Every GPU but GPU 0 sends its whole buffer (%d slots) to GPU 0, which folds them in rank order "
    "(reduce): its link carries %d buffers.",
    "除 GPU 0 外，每张 GPU 把整个缓冲区（%d 个分片）发给 GPU 0，按编号顺序合并（归约）；它的链路承载 %d 份缓冲区。"};
constexpr Words kToRootCopy{
    "Every GPU but GPU 0 sends its block to GPU 0, which stores it (copy): GPU 0 now holds "
    "all %d blocks.",
    "除 GPU 0 外，每张 GPU 把自己的块发给 GPU 0，原样保存（拷贝）：现在它持有全部 %d 块。"};
constexpr Words kFromRootAll{
    "GPU 0 sends the finished buffer to each of the other %d GPUs (copy), one after another over its one link.",
    "GPU 0 把算完的缓冲区依次发给其余 %d 张 GPU（拷贝），都走它的一条链路。"};
constexpr Words kFromRootOwn{
    "GPU 0 sends each GPU r its finished slot r (copy).",
    "GPU 0 把算完的分片 r 发给 GPU r（拷贝）。"};
constexpr Words kFromRootMissing{
    "GPU 0 sends every other GPU the blocks it lacks (copy), %d blocks in all over its "
    "one link.",
    "GPU 0 把每张 GPU 缺少的块发给它（拷贝），它的链路上共 %d 块。"};
constexpr Words kTrafficAllReduce{
    "%s: GPU 0 sends (N-1) x M, the others M",
    "%s：GPU 0 发送 (N-1) x M，其余各发 M"};
constexpr Words kTrafficAllReduceValues{
    "= (%d-1) x %s = %s from GPU 0",
    "= (%d-1) x %s = %s（GPU 0）"};
constexpr Words kTrafficReduceScatter{
    "%s: every GPU but GPU 0 sends M, GPU 0 (N-1)/N x M",
    "%s：除 GPU 0 外各发 M，GPU 0 发 (N-1)/N x M"};
constexpr Words kTrafficReduceScatterValues{
    "= %s from every GPU but GPU 0; GPU 0: %s",
    "= 除 GPU 0 外各发 %s；GPU 0：%s"};
constexpr Words kTrafficAllGather{
    "%s: GPU 0 sends (N-1)(N-1)/N x M, the others M/N",
    "%s：GPU 0 发送 (N-1)(N-1)/N x M，其余各发 M/N"};
constexpr Words kTrafficAllGatherValues{
    "= (%d-1)(%d-1)/%d x %s = %s from GPU 0",
    "= (%d-1)(%d-1)/%d x %s = %s（GPU 0）"};


std::string naive_plan(const CaptionContext& c) {
  const Op op = c.config.op;
  const Words& plan = op == Op::allgather ? kPlanAllGather : op == Op::reducescatter ? kPlanReduceScatter : kPlanAllReduce;
  return formatted(plan.in(c.language).data(), lock_step_round_count(c.schedule));
}

std::string naive_round(const CaptionContext& c) {
  const Round& round = c.schedule.rounds[static_cast<std::size_t>(c.round - 1)];
  const RoundShape shape = shape_of(round);
  if (shape.first == nullptr) return "";
  const int n = c.config.ranks;
  const Language l = c.language;
  if (shape.reduces) return formatted(kToRootReduce.in(l).data(), n, n - 1);
  if (shape.first->dst == 0) return formatted(kToRootCopy.in(l).data(), n);
  if (c.config.op == Op::allreduce) return formatted(kFromRootAll.in(l).data(), n - 1);
  if (c.config.op == Op::reducescatter) return std::string(kFromRootOwn.in(l));
  return formatted(kFromRootMissing.in(l).data(), static_cast<int>(round.transfers.size()));
}

// The hub's rounds say which way the data goes: into GPU 0 or out of it.
PhaseWord naive_phase(const CaptionContext& c, const Round& round) {
  const RoundShape shape = shape_of(round);
  if (shape.reduces) return PhaseWord::reduce;
  if (shape.first && shape.first->dst == 0) return PhaseWord::gather;
  return c.config.op == Op::reducescatter ? PhaseWord::scatter : PhaseWord::broadcast;
}

// GPU 0 is the hub every byte passes.
TrafficFormula naive_traffic(Language l, Op op, int n, int /*root*/, double m, const std::string& subject) {
  TrafficFormula f;
  if (op == Op::allreduce) {
    f.busiest_bytes = (n - 1) * m;
    f.formula = formatted(kTrafficAllReduce.in(l).data(), subject.c_str());
    f.values = formatted(kTrafficAllReduceValues.in(l).data(), n, format_binary_bytes(m).c_str(),
                         format_binary_bytes(f.busiest_bytes).c_str());
  } else if (op == Op::reducescatter) {
    const double hub = (n - 1) * m / n;
    f.busiest_bytes = std::max(m, hub);
    f.formula = formatted(kTrafficReduceScatter.in(l).data(), subject.c_str());
    f.values = formatted(kTrafficReduceScatterValues.in(l).data(), format_binary_bytes(m).c_str(),
                         format_binary_bytes(hub).c_str());
  } else {
    const double hub = static_cast<double>(n - 1) * (n - 1) * m / n;
    f.busiest_bytes = std::max(hub, m / n);
    f.formula = formatted(kTrafficAllGather.in(l).data(), subject.c_str());
    f.values = formatted(kTrafficAllGatherValues.in(l).data(), n, n, n, format_binary_bytes(m).c_str(),
                         format_binary_bytes(hub).c_str());
  }
  return f;
}

constexpr Words kAllWords[] = {kPlanAllGather, kPlanReduceScatter, kPlanAllReduce, kToRootReduce, kToRootCopy, kFromRootAll, kFromRootOwn, kFromRootMissing, kTrafficAllReduce, kTrafficAllReduceValues, kTrafficReduceScatter, kTrafficReduceScatterValues, kTrafficAllGather, kTrafficAllGatherValues};

}  // namespace

const AlgorithmUnit& naive_unit() {
  static const AlgorithmUnit unit{
      .id = Algorithm::naive,
      .name = "naive",
      .aliases = "",
      .help = "",
      .title = {"Naive (everything through GPU 0)", "朴素（全部经 GPU 0 中转）"},
      .menu_name = {},
      .label = {},
      .chart_colour = {160, 164, 174},
      .reduces_into_one_gpu = true,
      .supports = is_gather_or_reduce,
      .rounds = naive_rounds,
      .cost_shape = naive_cost,
      .cost_note = {},
      .traffic = naive_traffic,
      .captions = {.start = naive_plan, .round = naive_round, .phase = naive_phase},
      .words = kAllWords,
  };
  return unit;
}

}  // namespace ringviz
