// bidirectional_ring: NCCL's ring run both ways at once. Every slot is cut in two halves; the
// first half travels the ring clockwise (GPU r to r + 1) exactly as the ring moves a whole
// slot, the second counter-clockwise (GPU r to r - 1) on the mirror-image schedule, so every
// link carries traffic in both directions and each message is half a slot. The halves are the
// schedule's two own channels (AlgorithmUnit::own_channels), so the pipeline, the backends and
// the views cut and carry them as they do any channel: channel 0 clockwise, channel 1
// counter-clockwise, and --channels C gives C of each.
//
// Both halves of slot s end on the same GPU, the one that owns s in the ring. The fold order of
// an element (tests/core/reference.cpp follows it): in the first half as in the ring, starting
// at GPU s (seed order) or s + 1 (nccl) and going up; in the second half starting at GPU
// owner - 1 and going down, owner - 2, ..., to the owner.
#include "core/algorithms/algorithm_unit.h"
#include "core/algorithms/unit_words.h"
#include "core/schedule/schedule.h"

namespace ringviz {

namespace {

constexpr int kClockwise = 0;
constexpr int kCounterClockwise = 1;

void send(Round& round, int src, int dst, int slot, TransferKind kind, bool completes, int channel) {
  round.transfers.push_back({src, dst, slot, kind, completes, {channel, 0, 0}});
}

Schedule bidirectional_rounds(const Config& config) {
  const int n = config.ranks;
  Schedule schedule;
  schedule.channels = 2;
  schedule.lanes = 2;
  schedule.owned_slot.resize(static_cast<std::size_t>(n));
  for (int rank = 0; rank < n; ++rank)
    schedule.owned_slot[static_cast<std::size_t>(rank)] =
        config.op == Op::allgather ? rank : ring_owned_slot(config.order, rank, n);
  const auto owned = [&](int rank) { return schedule.owned_slot[static_cast<std::size_t>(wrap_rank(rank, n))]; };

  // Reduce-scatter, N - 1 steps. Clockwise: the ring's step. Counter-clockwise: at step t GPU r
  // sends the slot GPU r + 1 + t will own; it reaches its owner after the last step.
  if (config.op != Op::allgather)
    for (int step = 0; step + 1 < n; ++step) {
      Round round{Phase::reduce_scatter, {}};
      const bool last = step + 2 == n;
      for (int rank = 0; rank < n; ++rank) {
        send(round, rank, (rank + 1) % n, wrap_rank(ring_reduce_scatter_first_slot(config.order, rank, n) - step, n),
             TransferKind::reduce, last, kClockwise);
        send(round, rank, wrap_rank(rank - 1, n), owned(rank + 1 + step), TransferKind::reduce, last,
             kCounterClockwise);
      }
      schedule.rounds.push_back(std::move(round));
    }
  // All-gather, N - 1 steps from the owned slots. Clockwise GPU r forwards the slot GPU r - t
  // owns, counter-clockwise the one GPU r + t owns: each the one it received at step t - 1.
  if (config.op != Op::reducescatter)
    for (int step = 0; step + 1 < n; ++step) {
      Round round{Phase::all_gather, {}};
      for (int rank = 0; rank < n; ++rank) {
        send(round, rank, (rank + 1) % n, owned(rank - step), TransferKind::copy, false, kClockwise);
        send(round, rank, wrap_rank(rank - 1, n), owned(rank + step), TransferKind::copy, false, kCounterClockwise);
      }
      schedule.rounds.push_back(std::move(round));
    }
  return schedule;
}

// A GPU opens two messages a round (one to each neighbour) and sends the ring's bytes in all:
// on one port that is the ring's time plus a latency per round; with a link each way (a
// topology in `compare`) each link carries half.
std::string_view bidirectional_cost(Op op) {
  return op == Op::allgather       ? "2(N-1)α + (N-1)·nβ"
         : op == Op::reducescatter ? "2(N-1)α + (N-1)/N·nβ + (N-1)/N·nγ"
                                   : "4(N-1)α + 2(N-1)/N·nβ + (N-1)/N·nγ";
}

constexpr Words kStartAllGather{
    "Each GPU holds only its own block, cut in two halves. In N-1 rounds every first half walks once "
    "round the ring clockwise, every second half counter-clockwise.",
    "每张 GPU 只有自己的那一块，并分成两半。经过 N-1 轮，每块的前一半沿环顺时针走一圈，后一半逆时针走一圈。"};
constexpr Words kStartReduceScatter{
    "Each GPU holds its input cut into N slots, each slot in two halves. In N-1 rounds the %s of "
    "first halves go clockwise, of second halves counter-clockwise, until every GPU owns one fully "
    "reduced slot.",
    "每张 GPU 把输入分成 N 个分片，每片再分两半。经过 N-1 轮，前一半的%s顺时针传递，后一半的逆时针传递，"
    "直到每张 GPU 得到一个完全归约的分片。"};
constexpr Words kStartAllReduce{
    "Each GPU holds its input cut into N slots, each slot in two halves: first halves go round "
    "clockwise, second halves counter-clockwise. Reduce-scatter leaves each GPU one finished slot; "
    "all-gather hands them round.",
    "每张 GPU 把输入分成 N 个分片，每片再分两半：前一半沿环顺时针走，后一半逆时针走。"
    "先 reduce-scatter，每张 GPU 得到一个算完的分片；再 all-gather 把它们传给所有人。"};
constexpr Words kReduceRound{
    "Every GPU sends the first half of one slot to its right-hand neighbour and the second half of "
    "another to its left-hand one; each receiver folds it in (reduce). Each %s gains one term per round.",
    "每张 GPU 把一个分片的前一半发给右边的邻居，把另一个分片的后一半发给左边的邻居，收到的一方合并进来（归约）。"
    "每过一轮，每个%s多一项。"};
constexpr Words kReduceLast{
    "Last reduce-scatter round: the two halves of each slot reach the same GPU from both sides with "
    "their final term, so each GPU now owns one complete slot (outlined).",
    "reduce-scatter 的最后一轮：每个分片的两半从两侧到达同一张 GPU，补上最后一项，"
    "于是每张 GPU 都拥有一个完整的分片（带框）。"};
constexpr Words kGatherRound{
    "Every GPU forwards the first half of a finished slot to its right-hand neighbour and the second "
    "half of another to its left-hand one, which store them (copy).",
    "每张 GPU 把一个算完的分片的前一半转发给右边的邻居，把另一个的后一半转发给左边的邻居，对方原样保存（拷贝）。"};
constexpr Words kGatherLast{
    "Last all-gather round: the final halves land from both sides and every GPU holds the whole "
    "result.",
    "all-gather 的最后一轮：最后的半块从两侧到达，每张 GPU 都拿到了完整的结果。"};
constexpr Words kDoneAllReduce{
    "Every GPU holds the full reduction of every slot. Each sent 2(N-1)/N of its buffer, as in the "
    "ring, but half to each neighbour: both directions of every link worked.",
    "每张 GPU 都持有所有分片的完整归约结果。每张 GPU 与环形一样发送了缓冲区的 2(N-1)/N，"
    "但左右邻居各得一半：每条链路的两个方向都在工作。"};

std::string bidirectional_start(const CaptionContext& c) {
  const Op op = c.config.op;
  if (op == Op::reducescatter)
    return formatted(kStartReduceScatter.in(c.language).data(), std::string(c.partials).c_str());
  return std::string((op == Op::allgather ? kStartAllGather : kStartAllReduce).in(c.language));
}

std::string bidirectional_round(const CaptionContext& c) {
  const Round& round = c.schedule.rounds[static_cast<std::size_t>(c.round - 1)];
  const bool reduce = round.phase == Phase::reduce_scatter;
  const bool last_of_phase = reduce ? c.round == reduce_round_count(c.schedule) : c.round == c.schedule.round_count();
  if (reduce)
    return last_of_phase ? std::string(kReduceLast.in(c.language))
                         : formatted(kReduceRound.in(c.language).data(), std::string(c.partial).c_str());
  return std::string((last_of_phase ? kGatherLast : kGatherRound).in(c.language));
}

std::string bidirectional_done(const CaptionContext& c) {
  return c.config.op == Op::allreduce ? std::string(kDoneAllReduce.in(c.language)) : "";
}

constexpr Words kTraceNote{
    "Bidirectional ring {}, per GPU: the ring's (N−1)/N · M per pass = {} B sent, where M = {} B, "
    "half of it to each neighbour ({} B each way).",
    "双向环形 {} 中每张 GPU 的发送量：与环形相同，每遍 (N−1)/N · M，共 {} B，其中 M = {} B；"
    "左右邻居各得一半（每个方向 {} B）。"};

std::vector<std::string> bidirectional_trace_notes(Language language, const Config& config,
                                                   std::string (*quantity)(double)) {
  const double m = static_cast<double>(buffer_elements(config)) * static_cast<double>(dtype_size(config.dtype));
  const double per_gpu = (config.op == Op::allreduce ? 2 : 1) * pass_bytes_per_gpu(config.ranks, m);
  return {fill(kTraceNote.in(language),
               {op_display_name(config.op), quantity(per_gpu), quantity(m), quantity(per_gpu / 2)})};
}

// Lane 0 (channel 0) runs clockwise, lane 1 counter-clockwise.
constexpr Words kLaneNames[] = {{"clockwise", "顺时针"}, {"counter-clockwise", "逆时针"}};

constexpr Words kAllWords[] = {kLaneNames[0], kLaneNames[1], kStartAllGather, kStartReduceScatter, kStartAllReduce, kReduceRound, kReduceLast, kGatherRound, kGatherLast, kDoneAllReduce, kTraceNote};

}  // namespace

const AlgorithmUnit& bidirectional_ring_unit() {
  static const AlgorithmUnit unit{
      .id = Algorithm::bidirectional_ring,
      .name = "bidir-ring",
      .aliases = "bidirectional-ring",
      .help = "half of every slot clockwise, half counter-clockwise",
      .title = {"Bidirectional ring", "双向环形"},
      .menu_name = {"bidirectional ring", "双向环形"},
      .label = {"Bidirectional ring", "双向环形"},
      .chart_colour = {38, 190, 196},
      .ring_neighbours = true,
      .own_channels = 2,
      .lane_names = kLaneNames,
      .supports = is_gather_or_reduce,
      .rounds = bidirectional_rounds,
      .cost_shape = bidirectional_cost,
      .cost_note = {},
      .traffic = pass_traffic_formula,
      .trace_traffic_notes = bidirectional_trace_notes,
      .captions = {.whole_story = true,
                   .start = bidirectional_start,
                   .round = bidirectional_round,
                   .done = bidirectional_done},
      .words = kAllWords,
  };
  return unit;
}

}  // namespace ringviz
