#include "app/gui/text/round_caption.h"

#include <algorithm>
#include <string_view>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/op_label.h"
#include "app/gui/text/strings.h"
#include "core/algorithms/registry.h"
#include "core/algorithms/unit_words.h"
#include "core/schedule/pipeline.h"
#include "core/teaching/visual_cells.h"

namespace ringviz::gui {

namespace {

void append_sentence(std::string& text, std::string_view sentence) {
  text.push_back(' ');
  text.append(sentence);
}

// What holds once this round has landed, where it is the last of its phase.
const char* after_round(const UiStrings& t, const AlgorithmUnit& unit, const CaptionContext& context,
                        int reduce_rounds) {
  const Config& config = context.config;
  if (context.round == context.schedule.round_count())
    return config.op == Op::reducescatter ? t.after_owns
           : uneven_all_to_all(config)    ? t.after_all_to_all_uneven
           : config.op == Op::alltoall    ? t.after_all_to_all
                                          : t.after_all_hold;
  if (config.op != Op::allreduce || context.round != reduce_rounds) return nullptr;
  if (unit.reduces_into_one_gpu) return t.after_root_full;
  const AfterReduce after =
      unit.captions.after_reduce ? unit.captions.after_reduce(context) : AfterReduce::each_owns_slot;
  return after == AfterReduce::taking_part_own_slot ? t.after_taking_part_own
         : after == AfterReduce::root_holds_all     ? t.after_root_full
                                                    : t.after_owns;
}

// The unit picks the phase's name (the trees reduce and broadcast, the hub gathers and
// scatters); the words are the ones every algorithm shares.
const char* phase_word(const UiStrings& t, const AlgorithmUnit& unit, const CaptionContext& context,
                       const Round& round) {
  const PhaseWord word = unit.captions.phase                    ? unit.captions.phase(context, round)
                         : round.phase == Phase::reduce_scatter ? PhaseWord::reduce_scatter
                         : round.phase == Phase::broadcast      ? PhaseWord::broadcast
                         : round.phase == Phase::all_to_all     ? PhaseWord::all_to_all
                                                                : PhaseWord::all_gather;
  switch (word) {
    case PhaseWord::reduce_scatter: return t.phase_reduce_scatter;
    case PhaseWord::all_gather: return t.phase_all_gather;
    case PhaseWord::reduce: return t.phase_reduce;
    case PhaseWord::broadcast: return t.phase_broadcast;
    case PhaseWord::gather: return t.phase_gather;
    case PhaseWord::scatter: return t.phase_scatter;
    case PhaseWord::all_to_all: return t.phase_all_to_all;
  }
  return t.phase_reduce_scatter;
}

std::string with_reduction(const UiStrings& t, std::string text, ReduceOp reduce) {
  if (reduce != ReduceOp::sum) append_sentence(text, t.reduction_explained[static_cast<std::size_t>(reduce)]);
  return text;
}

}  // namespace

bool reduces_into_one_gpu(Algorithm algorithm) { return algorithm_unit(algorithm).reduces_into_one_gpu; }

RoundCaption round_caption(Language language, const Config& config, const Schedule& schedule,
                           const Traffic& traffic, int round, bool finished) {
  const UiStrings& t = ui_strings_for(language);
  const AlgorithmUnit& unit = algorithm_unit(config.algorithm);
  const AlgorithmCaptions& words = unit.captions;
  const CaptionContext context{language, config, schedule, round, partial_result(language, config.reduce, true),
                               partial_result(language, config.reduce, false)};
  const int rounds = schedule.round_count();
  RoundCaption caption;
  if (rounds == 0) {
    caption.title = format(t.caption_start, op_label(language, config.op));
    caption.body = t.explain_single_gpu;
    return caption;
  }
  if (round == 0) {
    caption.title = format(t.caption_start, op_label(language, config.op));
    if (words.whole_story) {
      caption.body = words.start(context);
    } else {
      if (config.op == Op::alltoall) {
        // Its plan says itself what every GPU holds (N blocks, each meant for one GPU).
        caption.body = words.start(context);
      } else {
        caption.body = config.op == Op::allgather ? t.start_holds_blocks : t.start_holds_slots;
        append_sentence(caption.body, words.start(context));
      }
    }
    if (op_reduces(config.op)) caption.body = with_reduction(t, caption.body, config.reduce);
    return caption;
  }
  if (finished) {
    caption.title = format(t.caption_done, op_label(language, config.op));
    caption.body = words.done ? words.done(context) : "";
    if (caption.body.empty())
      caption.body = config.op == Op::allgather       ? t.explain_done_allgather
                     : config.op == Op::reducescatter ? format(t.explain_done_reducescatter,
                                                               partial_result(language, config.reduce, true))
                     : uneven_all_to_all(config)      ? t.done_all_to_all_uneven
                     : config.op == Op::alltoall      ? t.done_all_to_all
                                                      : t.done_allreduce_plain;
    if (!words.whole_story) {
      std::int64_t busiest = 0;
      for (int r = 0; r < config.ranks; ++r) busiest = std::max(busiest, traffic.total_sent(r));
      append_sentence(caption.body, format(t.done_busiest, format_bytes(static_cast<double>(busiest)).c_str()));
    }
    return caption;
  }
  const Round& this_round = schedule.rounds[static_cast<std::size_t>(round - 1)];
  const bool reduce = this_round.phase == Phase::reduce_scatter;
  caption.phase = this_round.phase;
  // Pipelined by --channels or --slices, a wave holds pieces of several of the algorithm's own
  // rounds. An algorithm whose own rounds use channels (the bidirectional ring's two
  // directions) is not pipelined by that: its rounds are told as they are.
  const bool pipelined = pipeline_shape_of(schedule).pipelined();
  caption.title =
      format(pipelined ? t.caption_wave : t.caption_round, round, rounds, phase_word(t, unit, context, this_round));
  if (pipelined && !this_round.transfers.empty()) {
    // A wave of a pipelined schedule holds slices of several of the source article's rounds
    // (core/schedule/pipeline.h): it is told as the earliest of them, which the others follow.
    int first = this_round.transfers.front().step.round, last = first;
    for (const Transfer& transfer : this_round.transfers) {
      first = std::min(first, transfer.step.round);
      last = std::max(last, transfer.step.round);
    }
    Config lock_step = config;
    lock_step.channels = 1;
    lock_step.slices = 1;
    const RoundCaption earliest = round_caption(language, lock_step, make_schedule(lock_step), traffic, first + 1, false);
    caption.body = first == last ? earliest.body : format(t.pipeline_wave, first + 1, last + 1, first + 1);
    if (first != last) append_sentence(caption.body, earliest.body);
    return caption;
  }
  caption.body = words.round(context);
  if (!words.whole_story)
    if (const char* after = after_round(t, unit, context, reduce_scatter_rounds(schedule)))
      append_sentence(caption.body, after);
  if (reduce && op_reduces(config.op) && (words.whole_story || shape_of(this_round).reduces))
    caption.body = with_reduction(t, caption.body, config.reduce);
  return caption;
}

}  // namespace ringviz::gui
