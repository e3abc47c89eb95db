// rhd: recursive halving and doubling. With N a power of two, log2 N rounds per pass: at each
// round a GPU trades half of what it still works on with a partner whose rank differs in one
// bit, so the distance doubles (or halves) and the message halves (or doubles).
//
// N not a power of two: let p be the largest power of two below N and extra = N - p. Ranks
// 0 .. 2·extra - 1 pair up (2i, 2i + 1): first the even one folds its buffer into the odd one
// and sits out; the remaining p ranks run the power-of-two algorithm as "virtual ranks"; last,
// the odd one hands the even one its result.
#include "core/algorithms/algorithm_unit.h"
#include "core/algorithms/unit_words.h"
#include "core/schedule/schedule_steps.h"

namespace ringviz {

using namespace schedule_steps;

namespace {

struct VirtualRanks {
  int p = 1;      // participants: the largest power of two <= N
  int extra = 0;  // N - p ranks that fold into a partner first

  explicit VirtualRanks(int n) {
    while (p * 2 <= n) p *= 2;
    extra = n - p;
  }
  // The real GPU that plays virtual rank v.
  int real(int v) const { return v < extra ? 2 * v + 1 : v + extra; }
  // The virtual rank a slot ends up with: the one that plays its owner or the owner's partner.
  int home(int slot) const { return slot < 2 * extra ? slot / 2 : slot - extra; }
};

// Recursive halving. Distance d = p/2, p/4 ... 1: virtual rank v still works on the slots whose
// home lies in v's aligned block of 2d virtual ranks; it keeps the half whose home agrees with
// v in bit d and sends the other half to v ^ d, which folds it in. After the d = 1 round every
// slot sits fully reduced with its home.
void append_halving(const Config& config, const VirtualRanks& virt, Schedule& schedule) {
  const int n = config.ranks;
  for (int d = virt.p / 2; d >= 1; d /= 2) {
    Round round{Phase::reduce_scatter, {}};
    for (int v = 0; v < virt.p; ++v) {
      const int partner = v ^ d;
      for (int slot = 0; slot < n; ++slot) {
        const int home = virt.home(slot);
        const bool in_block = (home & ~(2 * d - 1)) == (v & ~(2 * d - 1));
        if (in_block && (home & d) == (partner & d))
          send_reduce(round, virt.real(v), virt.real(partner), slot, d == 1);
      }
    }
    schedule.rounds.push_back(std::move(round));
  }
}

// Recursive doubling. Distance d = 1, 2 ... p/2: virtual rank v holds every slot whose home
// lies in its aligned block of d virtual ranks and sends all of them to v ^ d.
void append_doubling(const Config& config, const VirtualRanks& virt, Schedule& schedule) {
  const int n = config.ranks;
  for (int d = 1; d < virt.p; d *= 2) {
    Round round{Phase::all_gather, {}};
    for (int v = 0; v < virt.p; ++v) {
      const int partner = v ^ d;
      for (int slot = 0; slot < n; ++slot)
        if ((virt.home(slot) & ~(d - 1)) == (v & ~(d - 1)))
          send_copy(round, virt.real(v), virt.real(partner), slot);
    }
    schedule.rounds.push_back(std::move(round));
  }
}

Schedule rhd_rounds(const Config& config) {
  const int n = config.ranks;
  const VirtualRanks virt(n);
  Schedule schedule;
  schedule.owned_slot = identity_owners(n);
  if (n == 1) return schedule;
  const bool gather_only = config.op == Op::allgather;
  const Phase first_phase = gather_only ? Phase::all_gather : Phase::reduce_scatter;
  const Phase last_phase = config.op == Op::reducescatter ? Phase::reduce_scatter : Phase::all_gather;

  // pre-step: each even rank below 2·extra hands its data to the odd rank above it: its block
  // (AllGather) or its whole buffer, folded in (ReduceScatter, AllReduce).
  if (virt.extra > 0) {
    Round fold{first_phase, {}};
    for (int i = 0; i < virt.extra; ++i) {
      if (gather_only) {
        send_copy(fold, 2 * i, 2 * i + 1, 2 * i);
      } else {
        for (int slot = 0; slot < n; ++slot) send_reduce(fold, 2 * i, 2 * i + 1, slot);
      }
    }
    schedule.rounds.push_back(std::move(fold));
  }

  if (!gather_only) append_halving(config, virt, schedule);
  if (config.op != Op::reducescatter) append_doubling(config, virt, schedule);

  // post-step: the odd rank hands its partner the result: slot 2i (ReduceScatter), every block
  // but the partner's own (AllGather), or the whole buffer (AllReduce).
  if (virt.extra > 0) {
    Round unfold{last_phase, {}};
    for (int i = 0; i < virt.extra; ++i)
      for (int slot = 0; slot < n; ++slot) {
        const bool wanted = config.op == Op::allreduce ||
                            (config.op == Op::reducescatter ? slot == 2 * i : slot != 2 * i);
        if (wanted) send_copy(unfold, 2 * i + 1, 2 * i, slot);
      }
    schedule.rounds.push_back(std::move(unfold));
  }
  return schedule;
}

std::string_view rhd_cost(Op op) {
  return op == Op::allgather       ? "log2(N)α + (N-1)·nβ"
         : op == Op::reducescatter ? "log2(N)α + (N-1)/N·nβ + (N-1)/N·nγ"
                                   : "2log2(N)α + 2(N-1)/N·nβ + (N-1)/N·nγ";
}

constexpr Words kPlanAllGather{
    "Recursive doubling, %d rounds: partners ever farther apart swap all they hold, doubling it each "
    "round.",
    "递归倍增，共 %d 轮：搭档之间越来越远，交换各自持有的全部数据，每张 GPU 持有的数据每轮翻倍。"};
constexpr Words kPlanReduceScatter{
    "Recursive halving, %d rounds: partners ever closer swap and reduce half of what they work on.",
    "递归减半，共 %d 轮：搭档之间越来越近，交换并归约仍在处理的一半数据，直到每张 GPU 得到一个分片。"};
constexpr Words kPlanAllReduce{
    "Halving in %d rounds (partners swap and reduce half their slots), then doubling in %d (they swap "
    "all they hold).",
    "先递归减半 %d 轮（搭档交换并归约一半分片），再递归倍增 %d 轮（交换持有的全部分片）。"};
constexpr Words kPlanExtra{
    "With %d GPUs, %d fold into a partner first and get the result last.",
    "%d 张 GPU 时，先有 %d 张合并到搭档，最后再拿回结果。"};
constexpr Words kPairApart{
    "GPUs %d apart",
    "编号相差 %d 的 GPU"};
constexpr Words kPairAny{
    "Partner GPUs",
    "搭档 GPU"};
constexpr Words kPairReduce{
    "%s pair up (GPU %d with GPU %d, ...) and swap half of the slots they still work on: each sends %d "
    "slot(s) to its partner, which folds them in (reduce).",
    "%s 两两配对（GPU %d 与 GPU %d，……），交换仍在处理的一半分片：每张发 %d 个分片给搭档，搭档合并进来（归约）。"};
constexpr Words kPairCopy{
    "%s pair up (GPU %d with GPU %d, ...) and swap the finished slots they hold: each sends %d slot(s) to "
    "its partner, which stores them (copy), so what each holds doubles.",
    "%s 两两配对（GPU %d 与 GPU %d，……），交换持有的算完的分片：每张发 %d 个分片给搭档，搭档原样保存（拷贝），数据翻倍。"};
constexpr Words kFoldReduce{
    "%s fold their whole buffer into the GPU one above (reduce) and wait; the other %d GPUs, a power of "
    "two, go on in pairs.",
    "%s 把整个缓冲区合并到编号大一的 GPU（归约）后等待；其余 %d 张 GPU（2 的幂）两两配对继续。"};
constexpr Words kFoldCopy{
    "%s hand their block to the GPU one above (copy) and wait; the other %d GPUs, a power of two, go on "
    "in pairs.",
    "%s 把自己的块交给编号大一的 GPU（拷贝）后等待；其余 %d 张 GPU（2 的幂）两两配对继续。"};
constexpr Words kUnfold{
    "The GPUs that waited get their share back: %s each receive %d slot(s) from the GPU one above "
    "(copy).",
    "等待的 GPU 拿回自己的那份：%s 各从编号大一的 GPU 收到 %d 个分片（拷贝）。"};
constexpr Words kTrafficNote{
    "(N a power of two; with %d GPUs the ones that take in a partner send more)",
    "（N 为 2 的幂时成立；%d 张 GPU 时，接收搭档数据的 GPU 发送得更多）"};


std::string rhd_plan(const CaptionContext& c) {
  const Op op = c.config.op;
  const VirtualRanks virt(c.config.ranks);
  int steps = 0;
  for (int d = 1; d < virt.p; d *= 2) ++steps;
  std::string plan = op == Op::allreduce
                         ? formatted(kPlanAllReduce.in(c.language).data(), steps, steps)
                         : formatted((op == Op::allgather ? kPlanAllGather : kPlanReduceScatter).in(c.language).data(),
                                     steps);
  if (virt.extra > 0) plan += " " + formatted(kPlanExtra.in(c.language).data(), c.config.ranks, virt.extra);
  return plan;
}

std::string rhd_round(const CaptionContext& c) {
  const RoundShape shape = shape_of(c.schedule.rounds[static_cast<std::size_t>(c.round - 1)]);
  if (shape.first == nullptr) return "";
  const Language l = c.language;
  const VirtualRanks virt(c.config.ranks);
  const bool paired_first = virt.extra > 0;
  if (paired_first && c.round == 1)
    return formatted((shape.reduces ? kFoldReduce : kFoldCopy).in(l).data(), gpu_list(l, shape.sending_gpus).c_str(),
                     virt.p);
  if (paired_first && c.round == c.schedule.round_count())
    return formatted(kUnfold.in(l).data(), gpu_list(l, shape.receiving_gpus).c_str(), shape.most_slots_per_message);
  const std::string who =
      shape.distance > 0 ? formatted(kPairApart.in(l).data(), shape.distance) : std::string(kPairAny.in(l));
  return formatted((shape.reduces ? kPairReduce : kPairCopy).in(l).data(), who.c_str(), shape.first->src,
                   shape.first->dst, shape.most_slots_per_message);
}

// With N not a power of two the GPUs that wait hold nothing finished yet.
AfterReduce rhd_after_reduce(const CaptionContext& c) {
  return VirtualRanks(c.config.ranks).extra == 0 ? AfterReduce::each_owns_slot : AfterReduce::taking_part_own_slot;
}

// A pass sends what the ring's does when N is a power of two.
TrafficFormula rhd_traffic(Language l, Op op, int n, int /*root*/, double m, const std::string& subject) {
  TrafficFormula f = pass_traffic_formula(l, op, n, 0, m, subject);
  if ((n & (n - 1)) != 0) f.note = formatted(kTrafficNote.in(l).data(), n);
  return f;
}

constexpr Words kAllWords[] = {kPlanAllGather, kPlanReduceScatter, kPlanAllReduce, kPlanExtra, kPairApart, kPairAny, kPairReduce, kPairCopy, kFoldReduce, kFoldCopy, kUnfold, kTrafficNote};

}  // namespace

const AlgorithmUnit& rhd_unit() {
  static const AlgorithmUnit unit{
      .id = Algorithm::rhd,
      .name = "rhd",
      .aliases = "",
      .help = "",
      .title = {"Recursive halving-doubling", "递归减半-倍增"},
      .menu_name = {},
      .label = {},
      .chart_colour = {80, 185, 110},
      .supports = is_gather_or_reduce,
      .rounds = rhd_rounds,
      .cost_shape = rhd_cost,
      .cost_note = {},
      .traffic = rhd_traffic,
      .captions = {.start = rhd_plan, .round = rhd_round, .after_reduce = rhd_after_reduce},
      .words = kAllWords,
  };
  return unit;
}

}  // namespace ringviz
