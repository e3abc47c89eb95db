#include "core/trace/trace_report.h"

#include <algorithm>

#include "core/algorithms/registry.h"
#include "core/engine/contributor_label.h"
#include "core/trace/trace_values.h"
#include "core/engine/traffic.h"
#include "core/schedule/pipeline.h"

namespace ringviz {

namespace {

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const std::string& part : parts) {
    if (!text.empty()) text += separator;
    text += part;
  }
  return text;
}

ReportBlock paragraph(std::string line) {
  return {ReportBlock::Kind::paragraph, {std::move(line)}, {}};
}
ReportBlock list(std::vector<std::string> items) {
  return {ReportBlock::Kind::list, std::move(items), {}};
}
ReportBlock table(TextTable contents) { return {ReportBlock::Kind::table, {}, std::move(contents)}; }

}  // namespace

// Says, in one language, what happened in every round, one round at a time.
class TraceReportBuilder::Impl {
 public:
  Impl(const Trace& trace, Language language)
      : trace_(trace), language_(language), ranks_(trace.config.ranks), slots_(slot_count(trace.config)),
        gather_(trace.config.op == Op::allgather), before_(trace.initial_provenance) {}

  TraceReport header() {
    TraceReport report;
    report.title = say(Phrase::title, language_,
                       {std::string(algorithm_unit(trace_.config.algorithm).title.in(language_)),
                        op_display_name(trace_.config.op), count_of(Noun::gpus, std::to_string(ranks_), language_)});
    report.preamble.push_back(paragraph(setup_line()));
    report.preamble.push_back(paragraph(layout_line()));
    const PieceFill fill = piece_fill(trace_.config, pipeline_shape_of(trace_.schedule));
    if (!lock_step() && fill.any_empty() && fill.count_to_fill == 0)
      report.preamble.push_back(paragraph(say(Phrase::empty_pieces_of_blocks, language_,
                                              {std::to_string(fill.empty), std::to_string(fill.total),
                                               std::to_string(pipeline_shape_of(trace_.schedule).pieces_per_slot())})));
    else if (!lock_step() && fill.any_empty())
      report.preamble.push_back(paragraph(say(
          Phrase::empty_pieces, language_,
          {std::to_string(fill.empty), std::to_string(fill.total), std::to_string(trace_.config.count),
           std::to_string(fill.count_to_fill), std::to_string(fill.count_to_fill)})));
    report.sections.push_back(inputs_section());

    // AllGather lists holdings in the order blocks arrived, as the source article's tables do.
    arrivals_.assign(static_cast<std::size_t>(ranks_), {});
    for (int rank = 0; rank < ranks_; ++rank)
      for (int slot = 0; slot < slots_; ++slot)
        if (trace_.initial_provenance.at(rank, slot).any()) arrivals_[static_cast<std::size_t>(rank)].push_back(slot);
    return report;
  }

  std::vector<ReportSection> round(const TraceRound& round) {
    std::vector<ReportSection> sections;
    sections.push_back(round_section(round, before_));
    before_ = round.provenance;
    const auto& schedule = trace_.schedule.rounds;
    const auto next = static_cast<std::size_t>(round.number);
    const bool reduce_phase_ends = round.round.phase == Phase::reduce_scatter &&
                                   (next >= schedule.size() || schedule[next].phase != Phase::reduce_scatter);
    if (reduce_phase_ends && owns_reduced_chunks(round.provenance))
      sections.push_back(owned_chunks_section(round.provenance));
    return sections;
  }

  std::vector<ReportSection> end() {
    std::vector<ReportSection> sections;
    // A one-GPU ReduceScatter has no rounds but still ends owning a chunk.
    if (trace_.config.op == Op::reducescatter && trace_.schedule.rounds.empty())
      sections.push_back(owned_chunks_section(trace_.initial_provenance));
    sections.push_back(outputs_section());
    sections.push_back(traffic_section());
    return sections;
  }

 private:
  // A pipelined schedule's steps are waves, each carrying slices of several of the source article's
  // rounds; lock-step, a wave is a round (docs/architecture.md, "Pipelined schedules").
  bool lock_step() const { return !pipeline_shape_of(trace_.schedule).pipelined(); }

  std::string gpu(int rank) const { return say(Phrase::gpu_name, language_, {std::to_string(rank)}); }

  // Half by half where the slot's lanes (the bidirectional ring's halves) differ.
  std::string label(const Provenance& provenance, int rank, int slot) const {
    return lane_reduction_label(trace_.config, provenance.lanes_at(rank, slot), slot, rank);
  }

  // The chunks a rank holds, in slot order, skipping those nothing has reached yet (a broadcast's);
  // a dash when there are none. Past kAllChunksMaxRanks of them: the first, "…", the last two.
  std::string held_chunks(const Provenance& provenance, int rank) const {
    std::vector<std::string> labels;
    for (int slot = 0; slot < slots_; ++slot)
      if (provenance.at(rank, slot).any()) labels.push_back(label(provenance, rank, slot));
    if (labels.empty()) return "—";
    if (labels.size() > static_cast<std::size_t>(kAllChunksMaxRanks))
      return labels.front() + ", …, " + labels[labels.size() - 2] + ", " + labels.back();
    return join(labels, ", ");
  }

  std::string slot_heading(int slot) const {
    // An uneven AllToAll's slot is a (sender, receiver) pair: "2→1" for GPU 2's block for GPU 1.
    if (uneven_all_to_all(trace_.config))
      return std::to_string(slot / ranks_) + "\u2192" + std::to_string(slot % ranks_);
    return gather_ ? rank_letter(slot, true)
                   : say(Phrase::chunk_name, language_, {std::to_string(slot)});
  }

  std::string setup_line() const {
    const Config& config = trace_.config;
    std::vector<std::string> parts = {
        say(Phrase::setup_count, language_, {std::to_string(config.count)}),
        std::string(dtype_name(config.dtype))};
    if (op_reduces(config.op)) parts.push_back(say(Phrase::setup_reduce, language_, {reduce_op_name(config.reduce)}));
    parts.push_back(say(Phrase::setup_order, language_, {order_name(config.order)}));
    parts.push_back(say(Phrase::setup_inputs, language_, {config.init.spec()}));
    parts.push_back(say(Phrase::setup_backend, language_, {trace_.backend}));
    return join(parts, " · ");
  }

  std::string layout_line() const {
    if (gather_)
      return say(Phrase::layout_blocks, language_,
                 {count_of(Noun::elements, std::to_string(trace_.config.count), language_)});
    std::int64_t smallest = trace_.layout[0].count;
    std::int64_t largest = smallest;
    for (const Slot& slot : trace_.layout.slots) {
      smallest = std::min(smallest, slot.count);
      largest = std::max(largest, slot.count);
    }
    const std::string sizes =
        smallest == largest
            ? std::to_string(largest)
            : say(Phrase::either, language_, {std::to_string(largest), std::to_string(smallest)});
    if (trace_.config.op == Op::broadcast)
    {
      const int root = trace_.config.root;
      return say(Phrase::layout_broadcast, language_,
                 {std::to_string(root), count_of(Noun::elements, std::to_string(trace_.config.count), language_),
                  count_of(Noun::chunks, std::to_string(ranks_), language_), count_of(Noun::elements, sizes, language_),
                  rank_letter(root, true) + (root < 26 ? "" : "_") + "2", std::to_string(root)});
    }
    if (uneven_all_to_all(trace_.config))
      return say(Phrase::layout_all_to_all_uneven, language_,
                 {std::to_string(ranks_ - 1), splits_text(trace_.config, " / ", 8), std::to_string(slots_)});
    if (trace_.config.op == Op::alltoall) {
      const std::int64_t left_over = trace_.config.count % ranks_;
      return say(Phrase::layout_all_to_all, language_,
                 {count_of(Noun::blocks, std::to_string(ranks_), language_), count_of(Noun::elements, sizes, language_),
                  left_over == 0 ? std::string()
                                 : say(Phrase::all_to_all_left_over, language_,
                                       {count_of(Noun::elements, std::to_string(left_over), language_)})});
    }
    const auto example = static_cast<Phrase>(static_cast<int>(Phrase::label_sum) +
                                              static_cast<int>(trace_.config.reduce));
    std::string line = say(Phrase::layout_chunks, language_,
                           {count_of(Noun::chunks, std::to_string(ranks_), language_),
                            count_of(Noun::elements, sizes, language_), say(example, language_)});
    // Past four terms the tables write ring runs; say once what one means.
    if (ranks_ > kMaxListedTerms) line += (language_ == Language::zh ? "" : " ") + say(Phrase::label_runs, language_);
    return line;
  }

  // Every value of one slot of one rank, or a dash when nothing has arrived there yet.
  std::string slot_values(const BufferState& buffers, const Provenance& provenance, int rank, int slot) const {
    if (provenance.at(rank, slot).none()) return "—";
    const Slot& where = trace_.layout[slot];
    return format_value_list(where.count, [&](std::int64_t i) {
      return format_element(read_element(buffers, rank, where.offset + i), trace_.config.dtype);
    });
  }

  // A list of values that says how many there were when it had to leave some out.
  std::string counted_list(std::int64_t size, const std::function<std::string(std::int64_t)>& at) const {
    std::string text = format_value_list(size, at);
    if (size > kFullListLimit) text += say(Phrase::value_count, language_, {std::to_string(size)});
    return text;
  }

  bool show_value_tables() const {
    if (slots_ > kValueTableMaxRanks) return false;
    return std::all_of(trace_.layout.slots.begin(), trace_.layout.slots.end(),
                       [](const Slot& slot) { return slot.count <= kValueTableMaxSlotElements; });
  }

  ReportSection inputs_section() const {
    TextTable inputs{{say(Phrase::column_gpu, language_), say(Phrase::column_holds, language_),
                      say(Phrase::column_values, language_)},
                     {}};
    const Provenance& provenance = trace_.initial_provenance;
    for (int rank = 0; rank < ranks_; ++rank) {
      std::string holds;
      if (gather_) {
        holds = label(provenance, rank, rank);
      } else if (ranks_ <= kAllChunksMaxRanks) {
        holds = held_chunks(provenance, rank);
      } else {
        holds = label(provenance, rank, 0) + ", …, " + label(provenance, rank, ranks_ - 1);
      }
      // The rank's own input: its block for AllGather, its whole buffer otherwise; a broadcast
      // reads the root's alone.
      const std::int64_t base = input_offset(trace_.config, trace_.layout, rank);
      if (trace_.config.op == Op::broadcast && rank != trace_.config.root) {
        inputs.rows.push_back({gpu(rank), "—", "—"});
        continue;
      }
      const std::string values = counted_list(input_elements_taken(trace_.config, rank), [&](std::int64_t i) {
        return format_element(read_element(trace_.initial, rank, base + i), trace_.config.dtype);
      });
      inputs.rows.push_back({gpu(rank), holds, values});
    }
    return {say(Phrase::inputs_heading, language_), {table(std::move(inputs))}};
  }

  std::string holdings(const TraceRound& round, int rank) {
    const Provenance& after = round.provenance;
    if (gather_) {
      std::vector<int>& order = arrivals_[static_cast<std::size_t>(rank)];
      for (const Transfer& transfer : round.round.transfers)
        if (transfer.dst == rank && std::find(order.begin(), order.end(), transfer.slot) == order.end())
          order.push_back(transfer.slot);
      // Once every block is there the arrival order no longer matters: list them A, B, C ...
      if (static_cast<int>(order.size()) == ranks_) std::sort(order.begin(), order.end());
      std::vector<std::string> labels;
      const std::size_t shown = order.size() > static_cast<std::size_t>(kAllChunksMaxRanks) ? 4 : order.size();
      for (std::size_t i = 0; i < shown; ++i) labels.push_back(label(after, rank, order[i]));
      if (shown < order.size()) {
        labels.push_back("…");
        labels.push_back(label(after, rank, order[order.size() - 2]));
        labels.push_back(label(after, rank, order.back()));
        return join(labels, ", ") +
               say(Phrase::block_count, language_, {std::to_string(order.size())});
      }
      return join(labels, ", ");
    }
    // A broadcast's holdings are a run of the root's chunks however many GPUs there are.
    if (ranks_ <= kAllChunksMaxRanks || trace_.config.op == Op::broadcast) return held_chunks(after, rank);
    // Too many chunks to list: name the ones this round changed.
    std::vector<std::string> changed;
    for (const Transfer& transfer : round.round.transfers)
      if (transfer.dst == rank)
        changed.push_back(say(Phrase::changed_chunk, language_,
                              {std::to_string(transfer.slot), label(after, rank, transfer.slot)}));
    return join(changed, "; ");
  }

  ReportSection round_section(const TraceRound& round, const Provenance& before) {
    std::string heading = say(lock_step() ? Phrase::round_heading : Phrase::wave_heading, language_,
                              {std::to_string(round.number), phase_name(round.round.phase)});
    if (round.microseconds)
      heading += say(Phrase::round_time, language_, {shortest_decimal(*round.microseconds)});

    std::vector<std::vector<std::string>> sends(static_cast<std::size_t>(ranks_));
    std::vector<std::vector<std::string>> receives(static_cast<std::size_t>(ranks_));
    const PipelineShape shape = pipeline_shape_of(trace_.schedule);
    for (const Transfer& transfer : round.round.transfers) {
      // Both sides name the value as it left the sender, before this round changed anything;
      // a pipelined transfer names its piece and its step (docs/architecture.md, "Pipelined
      // schedules").
      // A piece without elements carries no value to name: "0 B". In lock-step a lane's transfer
      // (the bidirectional ring's half) names its lane instead of its step: "a0 [clockwise]".
      const int piece = shape.piece_of(transfer.step);
      const std::span<const Words> lane_names = algorithm_unit(trace_.config.algorithm).lane_names;
      const std::size_t lane = static_cast<std::size_t>(shape.lane_of(transfer.step));
      std::string what;
      if (shape.whole_slots()) {
        what = label(before, transfer.src, transfer.source_slot());
      } else {
        what = before.piece_has_elements(transfer.source_slot(), piece)
                   ? reduction_label(trace_.config, before.at(transfer.src, transfer.source_slot(), piece),
                                     transfer.source_slot(), transfer.src)
                   : std::string("0 B");
        what += lock_step() && lane < lane_names.size()
                    ? " [" + std::string(lane_names[lane].in(language_)) + "]"
                    : " [ch " + std::to_string(transfer.step.channel) + " · round " +
                          std::to_string(transfer.step.round + 1) + " · slice " + std::to_string(transfer.step.slice) +
                          "]";
      }
      sends[static_cast<std::size_t>(transfer.src)].push_back(what + " → " + gpu(transfer.dst));
      receives[static_cast<std::size_t>(transfer.dst)].push_back(what + " ← " + gpu(transfer.src));
    }
    TextTable rounds{{say(Phrase::column_gpu, language_), say(Phrase::column_sends, language_),
                      say(Phrase::column_receives, language_),
                      say(lock_step() ? Phrase::column_holds_after_round : Phrase::column_holds_after_wave,
                          language_)},
                     {}};
    const auto cell = [](const std::vector<std::string>& items) {
      return items.empty() ? std::string("—") : join(items, "; ");
    };
    for (int rank = 0; rank < ranks_; ++rank)
      rounds.rows.push_back({gpu(rank), cell(sends[static_cast<std::size_t>(rank)]),
                             cell(receives[static_cast<std::size_t>(rank)]), holdings(round, rank)});

    ReportSection section{std::move(heading), {table(std::move(rounds))}};
    if (show_value_tables()) {
      TextTable values{{say(Phrase::column_gpu, language_)}, {}};
      for (int slot = 0; slot < slots_; ++slot) values.header.push_back(slot_heading(slot));
      for (int rank = 0; rank < ranks_; ++rank) {
        std::vector<std::string> row = {gpu(rank)};
        for (int slot = 0; slot < slots_; ++slot)
          row.push_back(slot_values(round.buffers, round.provenance, rank, slot));
        values.rows.push_back(std::move(row));
      }
      section.blocks.push_back(
          paragraph(say(lock_step() ? Phrase::values_after_round : Phrase::values_after_wave, language_,
                        {std::to_string(round.number)})));
      section.blocks.push_back(table(std::move(values)));
    }
    return section;
  }

  // Ring, direct and rhd leave every rank owning one fully reduced chunk; naive and tree
  // reduce everything onto one rank, and there is no such table to show.
  bool owns_reduced_chunks(const Provenance& provenance) const {
    for (int rank = 0; rank < ranks_; ++rank)
      if (provenance.at(rank, trace_.schedule.owned_slot[static_cast<std::size_t>(rank)]).count() !=
          static_cast<std::size_t>(ranks_))
        return false;
    return true;
  }

  // The chunk each rank holds fully reduced once the reduce-scatter pass is over.
  ReportSection owned_chunks_section(const Provenance& provenance) const {
    TextTable owned{{say(Phrase::column_gpu, language_), say(Phrase::column_fully_reduced, language_)}, {}};
    for (int rank = 0; rank < ranks_; ++rank) {
      const int slot = trace_.schedule.owned_slot[static_cast<std::size_t>(rank)];
      owned.rows.push_back({gpu(rank), say(Phrase::owned_chunk, language_,
                                           {label(provenance, rank, slot), std::to_string(slot)})});
    }
    const Phrase heading = trace_.config.op == Op::reducescatter
                               ? Phrase::reduce_scatter_result_heading
                               : Phrase::after_reduce_scatter_phase_heading;
    return {say(heading, language_), {table(std::move(owned))}};
  }

  ReportSection outputs_section() const {
    std::vector<std::string> items;
    const DType dtype = trace_.config.dtype;
    for (int rank = 0; rank < ranks_; ++rank) {
      const ByteBuffer& output = trace_.outputs[static_cast<std::size_t>(rank)];
      items.push_back(gpu(rank) + ": " + counted_list(element_count(output, dtype), [&](std::int64_t i) {
                        return format_element(read_element(output, dtype, i), dtype);
                      }));
    }
    return {say(Phrase::outputs_heading, language_), {list(std::move(items))}};
  }

  ReportSection traffic_section() const {
    TextTable bytes{{say(Phrase::column_gpu, language_), say(Phrase::column_bytes_sent, language_),
                     say(Phrase::column_bytes_received, language_)},
                    {}};
    for (int rank = 0; rank < ranks_; ++rank)
      bytes.rows.push_back({gpu(rank), std::to_string(trace_.traffic.total_sent(rank)),
                            std::to_string(trace_.traffic.total_received(rank))});
    ReportSection section{say(Phrase::traffic_heading, language_), {table(std::move(bytes))}};
    // The rings word the source article's formula; the other algorithms have only the exact table.
    if (const auto notes = algorithm_unit(trace_.config.algorithm).trace_traffic_notes)
      for (std::string& note : notes(language_, trace_.config, format_quantity))
        section.blocks.push_back(paragraph(std::move(note)));
    return section;
  }

  const Trace& trace_;
  Language language_;
  int ranks_;
  int slots_;  // per rank: N, or N x N for an uneven AllToAll
  bool gather_;
  std::vector<std::vector<int>> arrivals_;  // AllGather: blocks per rank in arrival order
  Provenance before_;                       // after the previous round
};

TraceReportBuilder::TraceReportBuilder(const Trace& trace, Language language)
    : impl_(std::make_unique<Impl>(trace, language)) {}
TraceReportBuilder::~TraceReportBuilder() = default;
TraceReport TraceReportBuilder::header() { return impl_->header(); }
std::vector<ReportSection> TraceReportBuilder::round(const TraceRound& round) { return impl_->round(round); }
std::vector<ReportSection> TraceReportBuilder::end() { return impl_->end(); }

TraceReport build_trace_report(const Trace& trace, Language language) {
  TraceReportBuilder builder(trace, language);
  TraceReport report = builder.header();
  const auto append = [&](std::vector<ReportSection> sections) {
    for (ReportSection& section : sections) report.sections.push_back(std::move(section));
  };
  for (const TraceRound& round : trace.rounds) append(builder.round(round));
  append(builder.end());
  return report;
}

}  // namespace ringviz
