#include "app/gui/text/round_caption.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <set>
#include <string_view>
#include <vector>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "core/schedule/pipeline.h"
#include "core/schedule/schedule.h"
#include "core/teaching/visual_cells.h"

namespace ringviz::gui {

namespace {

const char* op_name(const UiStrings& t, Op op) {
  return op == Op::allgather ? t.op_allgather : op == Op::reducescatter ? t.op_reducescatter : t.op_allreduce;
}

const char* partial(const UiStrings& t, ReduceOp reduce, bool plural) {
  const auto index = static_cast<std::size_t>(reduce);
  return plural ? t.reduction_partials[index] : t.reduction_partial[index];
}

void append_sentence(std::string& text, std::string_view sentence) {
  text.push_back(' ');
  text.append(sentence);
}

// The largest power of two not above `ranks`: the GPUs rhd pairs up.
int power_of_two_below(int ranks) {
  int p = 1;
  while (p * 2 <= ranks) p *= 2;
  return p;
}

// Depth in the heap-numbered binary tree the tree schedules use (docs/architecture.md, "Other
// algorithms"): GPU 0 at depth 0, GPUs 1 and 2 at depth 1 ...
int tree_depth(int rank) {
  int depth = 0;
  for (int r = rank + 1; r > 1; r /= 2) ++depth;
  return depth;
}

// What one round does, read off its transfers.
struct RoundShape {
  const Transfer* first = nullptr;  // the example the caption names
  bool reduces = false;
  int senders = 0;
  int receivers = 0;
  int most_slots_per_message = 0;  // slots one GPU sends one other GPU
  int most_messages = 0;           // messages one GPU sends
  int distance = 0;                // |src - dst| when every transfer has the same one, else 0
  std::vector<int> sending_gpus;   // ascending
  std::vector<int> receiving_gpus;
};

RoundShape shape_of(const Round& round) {
  RoundShape shape;
  if (round.transfers.empty()) return shape;
  shape.first = &round.transfers.front();
  shape.distance = std::abs(shape.first->src - shape.first->dst);
  // (src, dst, slot), sorted: messages and their slots are runs. A pipelined schedule sends a
  // slot in several pieces, which count once. Sorting keeps direct's N(N-1) transfers cheap.
  std::vector<std::array<int, 3>> sends;
  sends.reserve(round.transfers.size());
  std::set<int> senders, receivers;
  for (const Transfer& transfer : round.transfers) {
    shape.reduces |= transfer.kind == TransferKind::reduce;
    sends.push_back({transfer.src, transfer.dst, transfer.slot});
    senders.insert(transfer.src);
    receivers.insert(transfer.dst);
    if (std::abs(transfer.src - transfer.dst) != shape.distance) shape.distance = 0;
  }
  std::sort(sends.begin(), sends.end());
  sends.erase(std::unique(sends.begin(), sends.end()), sends.end());
  int slots = 0, messages = 0;
  for (std::size_t i = 0; i < sends.size(); ++i) {
    const bool same_src = i > 0 && sends[i][0] == sends[i - 1][0];
    const bool same_message = same_src && sends[i][1] == sends[i - 1][1];
    slots = same_message ? slots + 1 : 1;
    messages = same_message ? messages : same_src ? messages + 1 : 1;
    shape.most_slots_per_message = std::max(shape.most_slots_per_message, slots);
    shape.most_messages = std::max(shape.most_messages, messages);
  }
  shape.senders = static_cast<int>(senders.size());
  shape.receivers = static_cast<int>(receivers.size());
  shape.sending_gpus.assign(senders.begin(), senders.end());
  shape.receiving_gpus.assign(receivers.begin(), receivers.end());
  return shape;
}

// "GPU 0", "GPU 0 and GPU 2", "GPU 0, GPU 2 and GPU 4"; a long list keeps its first two and its
// last with "..." between.
std::string gpu_list(const UiStrings& t, const std::vector<int>& gpus) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    if (gpus.size() > 4 && i == 2) {
      names.push_back("...");
      i = gpus.size() - 2;
      continue;
    }
    names.push_back(format(t.gpu_name, gpus[i]));
  }
  if (names.empty()) return "";
  std::string text = names.back();
  if (names.size() >= 2) text = format(t.list_pair, names[names.size() - 2].c_str(), text.c_str());
  for (std::size_t i = names.size() - 2; names.size() > 2 && i-- > 0;) text = names[i] + t.list_comma + text;
  return text;
}

std::string start_plan(const UiStrings& t, const Config& config, const Schedule& schedule) {
  const int rounds = lock_step_round_count(schedule);
  const Op op = config.op;
  switch (config.algorithm) {
    case Algorithm::ring:
      break;  // the ring's texts are whole sentences of their own (see round_caption)
    case Algorithm::naive:
      return format(op == Op::allgather       ? t.plan_naive_allgather
                    : op == Op::reducescatter ? t.plan_naive_reducescatter
                                              : t.plan_naive_allreduce,
                    rounds);
    case Algorithm::direct:
      return op == Op::allgather       ? t.plan_direct_allgather
             : op == Op::reducescatter ? t.plan_direct_reducescatter
                                       : t.plan_direct_allreduce;
    case Algorithm::rhd: {
      const int p = power_of_two_below(config.ranks);
      int steps = 0;
      for (int d = 1; d < p; d *= 2) ++steps;
      std::string plan = op == Op::allreduce ? format(t.plan_rhd_allreduce, steps, steps)
                                             : format(op == Op::allgather ? t.plan_rhd_allgather
                                                                          : t.plan_rhd_reducescatter,
                                                      steps);
      if (p != config.ranks) append_sentence(plan, format(t.plan_rhd_extra, config.ranks, config.ranks - p));
      return plan;
    }
    case Algorithm::tree:
      return format(t.plan_tree, rounds);
    case Algorithm::tree_pipelined:
      return format(t.plan_tree_pipelined, rounds);
  }
  return "";
}

// A sentence for round `round` (1-based) of an algorithm other than the ring.
std::string round_sentence(const UiStrings& t, const Config& config, const Schedule& schedule, int round) {
  const Round& this_round = schedule.rounds[static_cast<std::size_t>(round - 1)];
  const RoundShape shape = shape_of(this_round);
  if (shape.first == nullptr) return "";
  const Transfer& example = *shape.first;
  const int n = config.ranks;
  const int rounds = schedule.round_count();
  switch (config.algorithm) {
    case Algorithm::ring:
      return "";
    case Algorithm::naive:
      if (shape.reduces) return format(t.round_to_root_reduce, n, n - 1);
      if (example.dst == 0) return format(t.round_to_root_copy, n);
      if (config.op == Op::allreduce) return format(t.round_from_root_all, n - 1);
      if (config.op == Op::reducescatter) return t.round_from_root_own;
      return format(t.round_from_root_missing, static_cast<int>(this_round.transfers.size()));
    case Algorithm::direct:
      return shape.reduces ? format(t.round_direct_reduce, shape.most_messages, shape.receivers > 0 ? shape.senders - 1 : 0)
                           : format(t.round_direct_gather, shape.most_messages);
    case Algorithm::rhd: {
      const bool paired_first = power_of_two_below(n) != n;
      if (paired_first && round == 1)
        return format(shape.reduces ? t.round_fold_reduce : t.round_fold_copy, gpu_list(t, shape.sending_gpus).c_str(),
                      power_of_two_below(n));
      if (paired_first && round == rounds)
        return format(t.round_unfold, gpu_list(t, shape.receiving_gpus).c_str(), shape.most_slots_per_message);
      const std::string who = shape.distance > 0 ? format(t.pair_apart, shape.distance) : std::string(t.pair_any);
      return format(shape.reduces ? t.round_pair_reduce : t.round_pair_copy, who.c_str(), example.src, example.dst,
                    shape.most_slots_per_message);
    }
    case Algorithm::tree:
      return format(shape.reduces ? t.round_tree_up : t.round_tree_down, tree_depth(example.src), example.src,
                    example.dst);
    case Algorithm::tree_pipelined:
      return format(shape.reduces ? t.round_pipe_up : t.round_pipe_down, shape.senders, example.src, example.slot,
                    example.dst);
  }
  return "";
}

// What holds once this round has landed, where it is the last of its phase.
const char* after_round(const UiStrings& t, const Config& config, int round, int rounds, int reduce_rounds) {
  if (round == rounds) return config.op == Op::reducescatter ? t.after_owns : t.after_all_hold;
  if (config.op != Op::allreduce || round != reduce_rounds) return nullptr;
  if (reduces_into_one_gpu(config.algorithm)) return t.after_root_full;
  // rhd with N not a power of two: the GPUs that wait hold nothing finished yet.
  return power_of_two_below(config.ranks) == config.ranks ? t.after_owns : t.after_taking_part_own;
}

const char* phase_word(const UiStrings& t, const Config& config, const Round& round) {
  const bool reduce = round.phase == Phase::reduce_scatter;
  switch (config.algorithm) {
    case Algorithm::tree:
    case Algorithm::tree_pipelined:
      return reduce ? t.phase_reduce : t.phase_broadcast;
    case Algorithm::naive: {
      // The hub's rounds say which way the data goes: into GPU 0 or out of it.
      const RoundShape shape = shape_of(round);
      if (shape.reduces) return t.phase_reduce;
      if (shape.first && shape.first->dst == 0) return t.phase_gather;
      return config.op == Op::reducescatter ? t.phase_scatter : t.phase_broadcast;
    }
    default:
      return reduce ? t.phase_reduce_scatter : t.phase_all_gather;
  }
}

std::string with_reduction(const UiStrings& t, std::string text, ReduceOp reduce) {
  if (reduce != ReduceOp::sum) append_sentence(text, t.reduction_explained[static_cast<std::size_t>(reduce)]);
  return text;
}

}  // namespace

bool reduces_into_one_gpu(Algorithm algorithm) {
  return algorithm == Algorithm::naive || algorithm == Algorithm::tree || algorithm == Algorithm::tree_pipelined;
}

RoundCaption round_caption(const Config& config, const Schedule& schedule, const Traffic& traffic, int round,
                           bool finished) {
  const UiStrings& t = ui_strings();
  const int rounds = schedule.round_count();
  const bool ring = config.algorithm == Algorithm::ring;
  RoundCaption caption;
  if (rounds == 0) {
    caption.title = format(t.caption_start, op_name(t, config.op));
    caption.body = t.explain_single_gpu;
    return caption;
  }
  if (round == 0) {
    caption.title = format(t.caption_start, op_name(t, config.op));
    if (ring) {
      caption.body = config.op == Op::allgather       ? t.explain_start_allgather
                     : config.op == Op::reducescatter ? format(t.explain_start_reducescatter,
                                                               partial(t, config.reduce, true))
                                                      : t.explain_start_allreduce;
    } else {
      caption.body = config.op == Op::allgather ? t.start_holds_blocks : t.start_holds_slots;
      append_sentence(caption.body, start_plan(t, config, schedule));
    }
    if (config.op != Op::allgather) caption.body = with_reduction(t, caption.body, config.reduce);
    return caption;
  }
  if (finished) {
    caption.title = format(t.caption_done, op_name(t, config.op));
    caption.body = config.op == Op::allgather       ? t.explain_done_allgather
                   : config.op == Op::reducescatter ? format(t.explain_done_reducescatter,
                                                             partial(t, config.reduce, true))
                   : ring                           ? t.explain_done_allreduce
                                                    : t.done_allreduce_plain;
    if (!ring) {
      std::int64_t busiest = 0;
      for (int r = 0; r < config.ranks; ++r) busiest = std::max(busiest, traffic.total_sent(r));
      append_sentence(caption.body, format(t.done_busiest, format_bytes(static_cast<double>(busiest)).c_str()));
    }
    return caption;
  }
  const Round& this_round = schedule.rounds[static_cast<std::size_t>(round - 1)];
  const bool reduce = this_round.phase == Phase::reduce_scatter;
  const int reduce_rounds = reduce_scatter_rounds(schedule);
  caption.phase = this_round.phase;
  caption.title = format(t.caption_round, round, rounds, phase_word(t, config, this_round));
  if ((schedule.channels > 1 || schedule.slices > 1) && !this_round.transfers.empty()) {
    // A wave of a pipelined schedule holds slices of several of the article's rounds
    // (core/schedule/pipeline.h): it is told as the earliest of them, which the others follow.
    int first = this_round.transfers.front().step.round, last = first;
    for (const Transfer& transfer : this_round.transfers) {
      first = std::min(first, transfer.step.round);
      last = std::max(last, transfer.step.round);
    }
    Config lock_step = config;
    lock_step.channels = 1;
    lock_step.slices = 1;
    const RoundCaption earliest = round_caption(lock_step, make_schedule(lock_step), traffic, first + 1, false);
    caption.body = first == last ? earliest.body : format(t.pipeline_wave, first + 1, last + 1, first + 1);
    if (first != last) append_sentence(caption.body, earliest.body);
    return caption;
  }
  if (ring) {
    const bool last_of_phase = reduce ? round == reduce_rounds : round == rounds;
    caption.body = reduce ? format(last_of_phase ? t.explain_reduce_last : t.explain_reduce_round,
                                   partial(t, config.reduce, false))
                          : (last_of_phase ? t.explain_gather_last : t.explain_gather_round);
  } else {
    caption.body = round_sentence(t, config, schedule, round);
    if (const char* after = after_round(t, config, round, rounds, reduce_rounds)) append_sentence(caption.body, after);
  }
  if (reduce && config.op != Op::allgather && (ring || shape_of(this_round).reduces))
    caption.body = with_reduction(t, caption.body, config.reduce);
  return caption;
}

}  // namespace ringviz::gui
