// ring: the source article's algorithm and ringviz's default. Every GPU sends to its right-hand
// neighbour only; a reduce-scatter pass of N - 1 rounds leaves each GPU one fully reduced slot,
// an all-gather pass of N - 1 rounds hands the finished slots round. Each GPU sends (N-1)/N of
// its buffer per pass, whatever N, which no other algorithm here beats.
#include "core/algorithms/algorithm_unit.h"
#include "core/algorithms/unit_words.h"
#include "core/schedule/schedule.h"
#include "core/schedule/schedule_steps.h"

namespace ringviz {

namespace {

// Ring reduce-scatter, N - 1 steps. Step t: every rank r pushes its partial result of slot
// (first(r) - t) to r + 1, which folds it into its own copy of that slot.
void append_reduce_scatter_pass(const Config& config, Schedule& schedule) {
  const int n = config.ranks;
  for (int step = 0; step + 1 < n; ++step) {
    Round round{Phase::reduce_scatter, {}};
    for (int rank = 0; rank < n; ++rank) {
      const int slot = wrap_rank(ring_reduce_scatter_first_slot(config.order, rank, n) - step, n);
      round.transfers.push_back({rank, (rank + 1) % n, slot, TransferKind::reduce, step + 2 == n, {}});
    }
    schedule.rounds.push_back(std::move(round));
  }
}

// Ring all-gather, N - 1 steps starting from the slot each rank owns. Step t: rank r forwards
// slot (owned(r) - t), the one it received at step t - 1 (its own at step 0).
void append_all_gather_pass(const Config& config, Schedule& schedule) {
  const int n = config.ranks;
  for (int step = 0; step + 1 < n; ++step) {
    Round round{Phase::all_gather, {}};
    for (int rank = 0; rank < n; ++rank) {
      const int slot = wrap_rank(schedule.owned_slot[static_cast<std::size_t>(rank)] - step, n);
      round.transfers.push_back({rank, (rank + 1) % n, slot, TransferKind::copy, false, {}});
    }
    schedule.rounds.push_back(std::move(round));
  }
}

// Ring broadcast, as NCCL runs it: a chain root -> root + 1 -> ... -> root - 1 round the ring, the
// root's buffer in N slots that follow each other one hop per round, so that every link is busy
// once the pipeline is full. In round t the GPU k hops down the chain forwards slot t - k, the one
// it received in round t - 1; the last GPU of the chain forwards nothing. N slots over N - 1 hops
// take 2N - 2 rounds.
void append_broadcast_chain(const Config& config, Schedule& schedule) {
  const int n = config.ranks;
  for (int round_index = 0; round_index < 2 * n - 2; ++round_index) {
    Round round{Phase::broadcast, {}};
    for (int hop = 0; hop + 1 < n; ++hop) {
      const int slot = round_index - hop;
      if (slot < 0 || slot >= n) continue;
      const int sender = (config.root + hop) % n;
      round.transfers.push_back({sender, (sender + 1) % n, slot, TransferKind::copy, false, {}});
    }
    schedule.rounds.push_back(std::move(round));
  }
}

Schedule ring_rounds(const Config& config) {
  Schedule schedule;
  const int n = config.ranks;
  if (config.op == Op::broadcast) {
    schedule.owned_slot = schedule_steps::identity_owners(n);
    append_broadcast_chain(config, schedule);
    return schedule;
  }
  schedule.owned_slot.resize(static_cast<std::size_t>(n));
  for (int rank = 0; rank < n; ++rank)
    schedule.owned_slot[static_cast<std::size_t>(rank)] =
        config.op == Op::allgather ? rank : ring_owned_slot(config.order, rank, n);
  if (config.op != Op::allgather) append_reduce_scatter_pass(config, schedule);
  if (config.op != Op::reducescatter) append_all_gather_pass(config, schedule);
  return schedule;
}

std::string_view ring_cost(Op op) {
  if (op == Op::broadcast) return "2(N-1)α + 2(N-1)/N·nβ";
  return op == Op::allgather       ? "(N-1)α + (N-1)·nβ"
         : op == Op::reducescatter ? "(N-1)α + (N-1)/N·nβ + (N-1)/N·nγ"
                                   : "2(N-1)α + 2(N-1)/N·nβ + (N-1)/N·nγ";
}

// The caption panel's paragraphs, from the source article.
constexpr Words kStartAllGather{
    "Each GPU holds only its own block (a capital letter); its other slots are still empty "
    "(hatched). In N-1 rounds every block walks once around the ring.",
    "每张 GPU 只有自己的那一块（大写字母），其余分片还是空的（斜线）。"
    "经过 N-1 轮，每一块都会沿环走完一圈。"};
constexpr Words kStartReduceScatter{
    "Each GPU holds its whole input cut into N slots (a0 is GPU a's slot 0). In N-1 rounds "
    "%s walk around the ring until every GPU owns one fully reduced slot.",
    "每张 GPU 都把自己的整个输入分成 N 个分片（a0 是 GPU a 的分片 0）。"
    "经过 N-1 轮，%s沿环传递，直到每张 GPU 都得到一个完全归约的分片。"};
constexpr Words kStartAllReduce{
    "Each GPU holds its whole input cut into N slots. A reduce-scatter pass leaves every "
    "GPU owning one finished slot; an all-gather pass then hands the finished slots round.",
    "每张 GPU 都把自己的整个输入分成 N 个分片。先做一遍 reduce-scatter，"
    "每张 GPU 各得到一个算完的分片；再做一遍 all-gather，把这些分片传给所有人。"};
constexpr Words kReduceRound{
    "Every GPU sends one slot to its right-hand neighbour, which combines it with its own "
    "copy of that slot (reduce). Each %s gains one term per round.",
    "每张 GPU 把一个分片发给右边的邻居，邻居把它与自己手上的同一分片合并（归约）。"
    "每过一轮，每个%s多一项。"};
constexpr Words kReduceLast{
    "Last reduce-scatter round: every arriving %s picks up its final term, so each "
    "GPU now owns one complete slot (outlined). Its other slots are leftovers (dimmed).",
    "reduce-scatter 的最后一轮：每个到达的%s补上最后一项，于是每张 GPU "
    "都拥有一个完整的分片（带框）。其余分片只是中间结果（变暗）。"};
constexpr Words kGatherRound{
    "Every GPU forwards a finished slot to its right-hand neighbour, which stores it "
    "unchanged (copy). Nothing is added any more: slots are only passed along.",
    "每张 GPU 把一个算完的分片转发给右边的邻居，邻居原样保存（拷贝）。"
    "这一阶段不再相加，分片只是被传下去。"};
constexpr Words kGatherLast{
    "Last all-gather round: the final copies land and every GPU holds the whole result.",
    "all-gather 的最后一轮：最后几份拷贝到达，每张 GPU 都拿到了完整的结果。"};
// %d: the root; %s: its slot 0's label ("D0"); %s: the chain ("3 → 4 → 0 → 1 → 2").
constexpr Words kStartBroadcast{
    "GPU %d, the root, holds the data cut into N slots (%s is its slot 0); the other GPUs' "
    "buffers are still empty (hatched). The slots travel down the chain %s, one hop "
    "per round and one behind the other: N slots over N-1 hops take 2N-2 rounds.",
    "根 GPU %d 持有数据，分成 N 个分片（%s 是它的分片 0）；其他 GPU 的缓冲区还是空的（斜线）。"
    "分片沿链 %s 每轮前进一跳，一个紧跟一个：N 个分片走 N-1 跳，共需 2N-2 轮。"};
constexpr Words kBroadcastRound{
    "The root sends its next slot to its right-hand neighbour, and every GPU down the chain "
    "forwards the slot it received last round (copy). Nothing is added: the root's data is only "
    "passed along.",
    "根把下一个分片发给右边的邻居，链上其余 GPU 把上一轮收到的分片转发下去（拷贝）。"
    "这里不做任何相加，根的数据只是被传下去。"};
constexpr Words kBroadcastLast{
    "Last round: the last slot reaches the end of the chain, and every GPU holds the root's "
    "whole buffer.",
    "最后一轮：最后一个分片到达链的末端，每张 GPU 都拿到了根的整个缓冲区。"};
constexpr Words kDoneBroadcast{
    "Every GPU holds the root's buffer. Each GPU but the last in the chain sent the whole buffer "
    "once; cutting it into N slots keeps every link busy, so it takes 2N-2 rounds of one slot "
    "rather than N-1 rounds of the whole buffer.",
    "每张 GPU 都持有根的缓冲区。除链尾外每张 GPU 都把整个缓冲区发送了一次；"
    "切成 N 个分片让每条链路都保持忙碌，所以只需 2N-2 轮、每轮一个分片，而不是 N-1 轮、每轮整个缓冲区。"};
constexpr Words kTraceBroadcast{
    "Ring Broadcast from GPU {} down the chain {}, per GPU but the last in the chain: M = {} B "
    "sent, where M = {} B is the root's buffer; the last GPU, {}, sends nothing.",
    "从 GPU {} 出发沿链 {} 的环形 Broadcast 中除链尾外每张 GPU 的发送量：M = {} B，其中 M = {} B "
    "为根的缓冲区大小；链尾的 GPU {} 不发送。"};
constexpr Words kDoneAllReduce{
    "Every GPU holds the full reduction of every slot. Each one sent 2(N-1)/N of its buffer "
    "to get there, however many GPUs take part.",
    "每张 GPU 都持有所有分片的完整归约结果。为此每张 GPU 发送了自身缓冲区的 "
    "2(N-1)/N，与参与的 GPU 数量无关。"};

// The chain's links, kept as the unit's words so that the GUI's atlas holds their glyphs (the
// chain itself is built at run time).
constexpr Words kChainLink{" → ", " → "};
constexpr Words kChainGap{" → … → ", " → … → "};

// NCCL's chain from the root round the ring, every GPU named up to six, else its ends:
// "3 → 4 → 0 → 1 → 2", "3 → 4 → … → 2".
std::string broadcast_chain(int root, int ranks) {
  const auto gpu = [&](int hop) { return std::to_string((root + hop) % ranks); };
  if (ranks <= 6) {
    std::string chain = gpu(0);
    for (int hop = 1; hop < ranks; ++hop) chain += std::string(kChainLink.en) + gpu(hop);
    return chain;
  }
  return gpu(0) + std::string(kChainLink.en) + gpu(1) + std::string(kChainGap.en) + gpu(ranks - 1);
}

// The label of the root's slot 0, as the engine's labels write it (its capital letter, or R<rank>_
// past Z).
std::string root_first_slot_label(int root) {
  if (root < 26) return std::string(1, static_cast<char>('A' + root)) + "0";
  return "R" + std::to_string(root) + "_0";
}

std::string ring_start(const CaptionContext& c) {
  const Op op = c.config.op;
  if (op == Op::broadcast)
    return formatted(kStartBroadcast.in(c.language).data(), c.config.root,
                     root_first_slot_label(c.config.root).c_str(),
                     broadcast_chain(c.config.root, c.config.ranks).c_str());
  if (op == Op::reducescatter)
    return formatted(kStartReduceScatter.in(c.language).data(), std::string(c.partials).c_str());
  return std::string((op == Op::allgather ? kStartAllGather : kStartAllReduce).in(c.language));
}

std::string ring_round(const CaptionContext& c) {
  const Round& round = c.schedule.rounds[static_cast<std::size_t>(c.round - 1)];
  if (round.phase == Phase::broadcast)
    return std::string((c.round == c.schedule.round_count() ? kBroadcastLast : kBroadcastRound).in(c.language));
  const bool reduce = round.phase == Phase::reduce_scatter;
  const bool last_of_phase = reduce ? c.round == reduce_round_count(c.schedule) : c.round == c.schedule.round_count();
  if (reduce)
    return formatted((last_of_phase ? kReduceLast : kReduceRound).in(c.language).data(),
                     std::string(c.partial).c_str());
  return std::string((last_of_phase ? kGatherLast : kGatherRound).in(c.language));
}

std::string ring_done(const CaptionContext& c) {
  if (c.config.op == Op::broadcast) return std::string(kDoneBroadcast.in(c.language));
  return c.config.op == Op::allreduce ? std::string(kDoneAllReduce.in(c.language)) : "";
}

// The trace report's formula after the byte table (`{}`: fill()).
constexpr Words kTraceAllReduce{
    "Ring AllReduce, per GPU: 2(N−1)/N · M = 2 · {}/{} · {} B = {} B sent, where M = {} B "
    "is one GPU's buffer.",
    "环形 AllReduce 中每张 GPU 的发送量：2(N−1)/N · M = 2 · {}/{} · {} B = {} B，其中 M = "
    "{} B 为单张 GPU 的缓冲区大小。"};
constexpr Words kTraceReduceScatter{
    "Ring ReduceScatter, per GPU: (N−1)/N · M = {}/{} · {} B = {} B sent, where M = {} B is "
    "one GPU's buffer.",
    "环形 ReduceScatter 中每张 GPU 的发送量：(N−1)/N · M = {}/{} · {} B = {} B，其中 M = {} "
    "B 为单张 GPU 的缓冲区大小。"};
constexpr Words kTraceAllGather{
    "Ring AllGather, per GPU: (N−1)/N · M = {}/{} · {} B = {} B sent, where M = {} B is the "
    "gathered result.",
    "环形 AllGather 中每张 GPU 的发送量：(N−1)/N · M = {}/{} · {} B = {} B，其中 M = {} B "
    "为拼接后的结果大小。"};

std::vector<std::string> ring_trace_notes(Language language, const Config& config, std::string (*quantity)(double)) {
  // M is what one GPU holds in the collective's own terms: its buffer, or for AllGather the
  // gathered result (the source article's formula is about the data being reduced or collected).
  const int n = config.ranks;
  const double m = static_cast<double>(buffer_elements(config)) * static_cast<double>(dtype_size(config.dtype));
  if (config.op == Op::broadcast)
    return {fill(kTraceBroadcast.in(language), {std::to_string(config.root), broadcast_chain(config.root, n), quantity(m),
                                                quantity(m), std::to_string((config.root + n - 1) % n)})};
  const double per_gpu = (config.op == Op::allreduce ? 2 : 1) * pass_bytes_per_gpu(n, m);
  const Words& formula = config.op == Op::allreduce       ? kTraceAllReduce
                         : config.op == Op::allgather ? kTraceAllGather
                                                          : kTraceReduceScatter;
  std::vector<std::string> notes{fill(formula.in(language), {std::to_string(n - 1), std::to_string(n), quantity(m),
                                                             quantity(per_gpu), quantity(m)})};
  if (op_reduces(config.op) && config.count % n != 0)
    notes.push_back(say(Phrase::formula_uneven, language,
                        {count_of(Noun::elements, std::to_string(config.count), language), std::to_string(n)}));
  return notes;
}

constexpr Words kBroadcastFormula{"%s sends, per GPU but the last in the chain:  M",
                                  "%s 除链尾外每张 GPU 发送：M"};
constexpr Words kBroadcastValues{"= %s (GPU %d, the last in the chain, sends nothing)",
                                 "= %s（链尾的 GPU %d 不发送）"};

// Broadcast sends the whole buffer down every link but the last; the passes send (N-1)/N of it.
TrafficFormula ring_traffic(Language language, Op op, int ranks, int root, double buffer_bytes,
                            const std::string& subject) {
  if (op != Op::broadcast) return pass_traffic_formula(language, op, ranks, root, buffer_bytes, subject);
  TrafficFormula f;
  f.busiest_bytes = ranks > 1 ? buffer_bytes : 0;
  f.formula = formatted(kBroadcastFormula.in(language).data(), subject.c_str());
  f.values = formatted(kBroadcastValues.in(language).data(), format_binary_bytes(f.busiest_bytes).c_str(),
                       (root + ranks - 1) % ranks);
  return f;
}

constexpr Words kAllWords[] = {kStartAllGather, kStartReduceScatter, kStartAllReduce, kReduceRound, kReduceLast,
                               kGatherRound,    kGatherLast,         kDoneAllReduce,  kTraceAllReduce, kTraceReduceScatter,
                               kTraceAllGather, kStartBroadcast,     kBroadcastRound, kBroadcastLast, kDoneBroadcast,
                               kTraceBroadcast, kBroadcastFormula,   kBroadcastValues, kChainLink,
                               kChainGap};

bool ring_supports(Op op) { return is_gather_or_reduce(op) || op == Op::broadcast; }

}  // namespace

const AlgorithmUnit& ring_unit() {
  static const AlgorithmUnit unit{
      .id = Algorithm::ring,
      .name = "ring",
      .aliases = "",
      .help = "",
      .title = {"Ring", "环形"},
      .menu_name = {"ring", "环形"},
      .label = {"Ring", "环形"},
      .chart_colour = {72, 139, 240},
      .ring_neighbours = true,
      .supports = ring_supports,
      .rounds = ring_rounds,
      .cost_shape = ring_cost,
      .cost_note = {},
      .traffic = ring_traffic,
      .trace_traffic_notes = ring_trace_notes,
      .captions = {.whole_story = true, .start = ring_start, .round = ring_round, .done = ring_done},
      .words = kAllWords,
  };
  return unit;
}

}  // namespace ringviz
