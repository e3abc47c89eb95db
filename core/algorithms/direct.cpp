// direct: every message goes straight to the GPU it is meant for, never forwarded. AllGather,
// ReduceScatter, AllReduce: every pair of GPUs talks at once, one round per pass, N - 1 messages
// per GPU per round; each message is small, so latency (one α per message) dominates at large N.
// AllToAll: pairwise exchanges, one partner per GPU per round (see pairwise_partner).
#include <algorithm>

#include "core/algorithms/algorithm_unit.h"
#include "core/algorithms/unit_words.h"
#include "core/model/layout.h"
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

// AllToAll's partner of GPU `rank` in round `round`, or -1 when it sits the round out. Every GPU
// must send its block j into GPU j's slot of its own number in the one working buffer it has,
// in place. NCCL and MPI's usual order (in round k, send to r + k, receive from r - k) needs a
// separate receive buffer: in place, GPU r's slot r - k would be overwritten in round k before
// its block went out in round N - k. So ringviz pairs GPUs as in-place MPI_Alltoall does, and
// each pair swaps the two blocks meant for each other in one round, both read before either is
// written. The pairs are a round-robin tournament (the circle method): with m = N - 1 for even N
// and m = N for odd N, GPU r < m meets (2k - r) mod m in round k = 0 .. m - 1; the one GPU that
// would meet itself (r = k) meets GPU N - 1 when N is even and waits when N is odd. Every pair
// meets exactly once: N - 1 rounds for even N, N for odd N, the fewest one partner a round
// allows (N = 2^j gives other pairs than MPI's r xor k, with as many rounds).
int pairwise_partner(int rank, int round, int ranks) {
  const bool even = ranks % 2 == 0;
  const int m = even ? ranks - 1 : ranks;
  if (even && rank == ranks - 1) return round;
  const int partner = ((2 * round - rank) % m + m) % m;
  if (partner != rank) return partner;
  return even ? ranks - 1 : -1;
}

int pairwise_round_count(int ranks) { return ranks <= 1 ? 0 : (ranks % 2 == 0 ? ranks - 1 : ranks); }

// Each pair swaps: GPU r's slot p (its block for p) lands in GPU p's slot r, and back. The
// round planner stages both slots, since each is read and written in the same round. With
// uneven splits every (sender, receiver) block has its own slot on every GPU instead
// (core/model/layout.h), so GPU r's block for p goes from its slot r·N+p into the same slot of
// GPU p: a plain copy, nothing read and written at once.
Schedule pairwise_all_to_all(int n, bool uneven) {
  Schedule schedule;
  schedule.owned_slot = identity_owners(n);
  for (int k = 0; k < pairwise_round_count(n); ++k) {
    Round round{Phase::all_to_all, {}};
    for (int rank = 0; rank < n; ++rank) {
      const int partner = pairwise_partner(rank, k, n);
      if (partner < 0) continue;
      if (uneven)
        send_copy(round, rank, partner, pair_slot(n, rank, partner));
      else
        send_copy_between(round, rank, partner, partner, rank);
    }
    schedule.rounds.push_back(std::move(round));
  }
  return schedule;
}

Schedule direct_rounds(const Config& config) {
  const int n = config.ranks;
  if (config.op == Op::alltoall) return pairwise_all_to_all(n, uneven_all_to_all(config));
  Schedule schedule;
  schedule.owned_slot = identity_owners(n);
  if (n == 1) return schedule;
  if (config.op != Op::allgather) schedule.rounds.push_back(direct_reduce_scatter(n));
  if (config.op != Op::reducescatter) schedule.rounds.push_back(direct_all_gather(n));
  return schedule;
}

std::string_view direct_cost(Op op) {
  if (op == Op::alltoall) return "(N-1)α + (N-1)/N·nβ (odd N: Nα + (N-1)/N·nβ)";
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

constexpr Words kPlanAllToAll{
    "Every GPU holds N blocks, block j meant for GPU j. Round by round the GPUs pair up, and each pair "
    "swaps the two blocks meant for each other, straight across: every GPU meets every other once, in "
    "N-1 rounds (N when N is odd: one GPU waits each round).",
    "每张 GPU 持有 N 个块，块 j 发给 GPU j。每一轮 GPU 两两配对，每对直接互换发给对方的两个块："
    "每张 GPU 与其他每张各相遇一次，共 N-1 轮（N 为奇数时 N 轮，每轮有一张 GPU 等待）。"};
constexpr Words kRoundAllToAll{
    "The GPUs pair up: %s. Each pair swaps the blocks meant for each other (copy): GPU %d's block "
    "for GPU %d lands in GPU %d's slot %d.",
    "GPU 两两配对：%s。每对互换发给对方的块（拷贝）：GPU %d 发给 GPU %d 的块落入 GPU %d 的分片 %d。"};
constexpr Words kRoundAllToAllWaits{" GPU %d waits this round.", "本轮 GPU %d 等待。"};
constexpr Words kPlanAllToAllUneven{
    "The blocks differ in size, so every GPU's buffer has a slot for each (sender, receiver) pair, drawn as N "
    "rows of N: row s holds what GPU s sends. Each GPU starts with its own row. Round by round the GPUs pair "
    "up and each pair sends each other the block meant for it, into the same pair's slot: every GPU meets "
    "every other once, in N-1 rounds (N when N is odd: one GPU waits each round), and ends holding its column.",
    "各块大小不同，因此每张 GPU 的缓冲区为每个（发送方，接收方）组合各留一个分片，画成 N 行 N 列：第 s 行是 GPU s "
    "要发出的块。每张 GPU 起初只持有自己那一行。每一轮 GPU 两两配对，每对互相发送发给对方的块，放入同一组合的分片："
    "每张 GPU 与其他每张各相遇一次，共 N-1 轮（N 为奇数时 N 轮，每轮有一张 GPU 等待），最后持有自己那一列。"};
constexpr Words kRoundAllToAllUneven{
    "The GPUs pair up: %s. Each pair sends each other its block (copy), into the same pair's slot: GPU %d's "
    "block for GPU %d, %lld elements, lands in row %d of GPU %d.",
    "GPU 两两配对：%s。每对互相发送自己的块（拷贝），放入同一组合的分片：GPU %d 发给 GPU %d 的块（%lld 个元素）"
    "作为第 %d 行落入 GPU %d。"};

// "0 & 3, 1 & 2": each pair of the round once, by its lower GPU.
std::string round_pairs(const Round& round) {
  std::string pairs;
  for (const Transfer& transfer : round.transfers) {
    if (transfer.src > transfer.dst) continue;
    if (!pairs.empty()) pairs += ", ";
    pairs += std::to_string(transfer.src) + " & " + std::to_string(transfer.dst);
  }
  return pairs;
}

std::string all_to_all_round(const CaptionContext& c, const Round& round) {
  if (round.transfers.empty()) return "";
  // Uneven: the example is the round's first block that carries elements, where one does.
  const auto carries = [&](const Transfer& t) { return uneven_all_to_all(c.config) && split_of(c.config, t.src, t.dst) > 0; };
  const auto example = std::find_if(round.transfers.begin(), round.transfers.end(), carries);
  const Transfer& first = example != round.transfers.end() ? *example : round.transfers.front();
  std::string text =
      uneven_all_to_all(c.config)
          ? formatted(kRoundAllToAllUneven.in(c.language).data(), round_pairs(round).c_str(), first.src, first.dst,
                      static_cast<long long>(split_of(c.config, first.src, first.dst)), first.src, first.dst)
          : formatted(kRoundAllToAll.in(c.language).data(), round_pairs(round).c_str(), first.src, first.dst,
                      first.dst, first.slot);
  std::vector<char> busy(static_cast<std::size_t>(c.config.ranks), 0);
  for (const Transfer& transfer : round.transfers) busy[static_cast<std::size_t>(transfer.src)] = 1;
  for (int rank = 0; rank < c.config.ranks; ++rank)
    if (!busy[static_cast<std::size_t>(rank)]) text += formatted(kRoundAllToAllWaits.in(c.language).data(), rank);
  return text;
}

std::string direct_plan(const CaptionContext& c) {
  const Op op = c.config.op;
  if (op == Op::alltoall)
    return std::string((uneven_all_to_all(c.config) ? kPlanAllToAllUneven : kPlanAllToAll).in(c.language));
  return std::string(
      (op == Op::allgather ? kPlanAllGather : op == Op::reducescatter ? kPlanReduceScatter : kPlanAllReduce)
          .in(c.language));
}

std::string direct_round(const CaptionContext& c) {
  const Round& round = c.schedule.rounds[static_cast<std::size_t>(c.round - 1)];
  if (c.config.op == Op::alltoall) return all_to_all_round(c, round);
  const RoundShape shape = shape_of(round);
  if (shape.first == nullptr) return "";
  return shape.reduces ? formatted(kRoundReduce.in(c.language).data(), shape.most_messages,
                                   shape.receivers > 0 ? shape.senders - 1 : 0)
                       : formatted(kRoundGather.in(c.language).data(), shape.most_messages);
}

constexpr Words kAllWords[] = {kPlanAllGather,      kPlanReduceScatter, kPlanAllReduce,
                               kRoundReduce,        kRoundGather,       kPlanAllToAll,
                               kRoundAllToAll,      kRoundAllToAllWaits, kPlanAllToAllUneven,
                               kRoundAllToAllUneven};

bool direct_supports(Op op) { return is_gather_or_reduce(op) || op == Op::alltoall; }

}  // namespace

const AlgorithmUnit& direct_unit() {
  static const AlgorithmUnit unit{
      .id = Algorithm::direct,
      .name = "direct",
      .aliases = "",
      .help = "",
      .title = {"Direct (straight to each GPU)", "直连（直接发给每张 GPU）"},
      .menu_name = {},
      .label = {},
      .chart_colour = {228, 88, 104},
      .supports = direct_supports,
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
