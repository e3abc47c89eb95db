#include "core/trace/chrome_trace.h"

#include <functional>
#include <string>

#include "core/algorithms/registry.h"
#include "core/engine/contributor_label.h"
#include "core/schedule/pipeline.h"

namespace ringviz {

namespace {

// Process ids: 0 holds the rounds track, GPU r is process r + 1 with threads 1 (send) and
// 2 (receive); a pipelined trace gives each channel its own pair, 2c + 1 and 2c + 2
// (docs/architecture.md, "Pipelined schedules").
constexpr int kRoundsPid = 0;
constexpr int kSendTid = 1;
constexpr int kReceiveTid = 2;
int gpu_pid(int rank) { return rank + 1; }
int send_tid(int channel) { return kSendTid + 2 * channel; }
int receive_tid(int channel) { return kReceiveTid + 2 * channel; }

nlohmann::json metadata(const char* name, int pid, int tid, nlohmann::json args) {
  return {{"ph", "M"}, {"name", name}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

nlohmann::json slice(std::string name, const char* category, int pid, int tid, double ts, double dur,
                     nlohmann::json args) {
  return {{"ph", "X"}, {"name", std::move(name)}, {"cat", category}, {"pid", pid}, {"tid", tid},
          {"ts", ts},  {"dur", dur},              {"args", std::move(args)}};
}

// One end of the arrow from a send slice to its receive slice; `ts` must lie inside the slice.
nlohmann::json flow(const char* phase, std::int64_t id, int pid, int tid, double ts) {
  nlohmann::json event = {{"ph", phase}, {"name", "transfer"}, {"cat", "transfer"}, {"id", id},
                          {"pid", pid},  {"tid", tid},         {"ts", ts}};
  if (std::string(phase) == "f") event["bp"] = "e";
  return event;
}

using RoundRecord = ChromeTraceWriter::RoundRecord;
using EventSink = std::function<void(nlohmann::json)>;

bool every_round_measured(const std::vector<RoundRecord>& rounds) {
  if (rounds.empty()) return false;
  for (const RoundRecord& round : rounds)
    if (!round.microseconds) return false;
  return true;
}

RoundRecord round_record(const Trace& trace, const TraceRound& round) {
  RoundRecord record{round.microseconds, {}};
  record.holds.reserve(round.round.transfers.size());
  const PipelineShape shape = pipeline_shape_of(trace.schedule);
  for (const Transfer& transfer : round.round.transfers) {
    const int piece = shape.piece_of(transfer.step);
    // A piece without elements holds no value to name.
    record.holds.push_back(round.provenance.piece_has_elements(transfer.slot, piece)
                               ? reduction_label(trace.config, round.provenance.at(transfer.dst, transfer.slot, piece),
                                                 transfer.slot, transfer.dst)
                               : std::string("0 B"));
  }
  return record;
}

// The whole run's timing, known before the first event is written.
struct ChromeTiming {
  CostEstimate model;
  bool measured = false;
  double total_us = 0;
  double round_us(const std::vector<RoundRecord>& rounds, std::size_t index) const {
    return measured ? *rounds[index].microseconds : model.per_round[index].seconds * 1e6;
  }
};

ChromeTiming chrome_timing(const Trace& trace, const std::vector<RoundRecord>& rounds,
                           const ChromeTraceOptions& options) {
  ChromeTiming timing{estimate_cost(trace.config, trace.schedule, trace.layout, options.link),
                      options.prefer_measured && every_round_measured(rounds), 0};
  if (options.machine && !timing.model.per_round.empty()) {
    // The machine's total, in the link model's proportions round by round: the same figure
    // `compare` prints for this collective, so a trace and a table never disagree.
    const double on_machine = options.machine->seconds;
    double walked = 0;
    for (const RoundCost& round : timing.model.per_round) walked += round.seconds;
    const double scale = walked > 0 ? on_machine / walked : 0;
    for (RoundCost& round : timing.model.per_round) round.seconds *= scale;
    timing.model.seconds = on_machine;
  }
  for (std::size_t index = 0; index < trace.schedule.rounds.size(); ++index)
    timing.total_us += timing.round_us(rounds, index);
  return timing;
}

nlohmann::json other_data(const Trace& trace, const ChromeTiming& timing, const ChromeTraceOptions& options) {
  const Config& config = trace.config;
  return {{"generator", std::string("ringviz ") + RINGVIZ_VERSION},
          {"op", op_name(config.op)},
          {"algorithm", algorithm_name(config.algorithm)},
          {"ranks", config.ranks},
          {"count", config.count},
          {"dtype", dtype_name(config.dtype)},
          {"reduce", reduce_op_name(config.reduce)},
          {"backend", trace.backend},
          {"timing", timing.measured ? "measured" : "modelled"},
          {"link", options.link.key},
          {"link_label", options.link.label},
          {"topology", options.machine ? nlohmann::json(options.machine->topology) : nlohmann::json()},
          {"modelled_us", timing.model.seconds * 1e6},
          {"total_us", timing.total_us}};
}

void emit_events(const Trace& trace, const std::vector<RoundRecord>& rounds, const ChromeTiming& timing,
                 const EventSink& emit) {
  const Config& config = trace.config;
  const int n = config.ranks;
  const bool measured = timing.measured;
  const std::int64_t element = static_cast<std::int64_t>(dtype_size(config.dtype));
  const PipelineShape shape = pipeline_shape_of(trace.schedule);
  const auto bytes_of = [&](const Transfer& transfer) {
    return transfer_span(transfer, trace.layout, shape).count * element;
  };

  const std::string title = std::string(op_name(config.op)) + " (" + std::string(algorithm_name(config.algorithm)) +
                            ", " + std::to_string(n) + " GPUs)";
  emit(metadata("process_name", kRoundsPid, 0, {{"name", title}}));
  emit(metadata("process_sort_index", kRoundsPid, 0, {{"sort_index", -1}}));
  emit(metadata("thread_name", kRoundsPid, 0, {{"name", "rounds"}}));
  for (int rank = 0; rank < n; ++rank) {
    const int pid = gpu_pid(rank);
    emit(metadata("process_name", pid, 0, {{"name", "GPU " + std::to_string(rank)}}));
    emit(metadata("process_sort_index", pid, 0, {{"sort_index", rank}}));
    for (int channel = 0; channel < shape.channels; ++channel) {
      const std::string lane = shape.channels > 1 ? ", channel " + std::to_string(channel) : "";
      emit(metadata("thread_name", pid, send_tid(channel), {{"name", "send" + lane}}));
      emit(metadata("thread_name", pid, receive_tid(channel), {{"name", "receive" + lane}}));
      emit(metadata("thread_sort_index", pid, send_tid(channel), {{"sort_index", 2 * channel}}));
      emit(metadata("thread_sort_index", pid, receive_tid(channel), {{"sort_index", 2 * channel + 1}}));
    }
  }

  double round_start = 0;  // µs
  std::int64_t flow_id = 0;
  for (std::size_t index = 0; index < trace.schedule.rounds.size(); ++index) {
    const Round& round = trace.schedule.rounds[index];
    const RoundCost& cost = timing.model.per_round[index];
    const double modelled = cost.seconds * 1e6;
    const RoundRecord* recorded = index < rounds.size() ? &rounds[index] : nullptr;
    const double duration = timing.round_us(rounds, index);
    // Model seconds -> trace µs inside this round.
    const double scale = modelled > 0 ? duration / cost.seconds : 1e6;
    const std::string phase(phase_name(round.phase));

    std::int64_t round_bytes = 0;
    for (const Transfer& transfer : round.transfers) round_bytes += bytes_of(transfer);
    emit(slice("round " + std::to_string(index + 1) + " " + phase, "round", kRoundsPid, 0, round_start, duration,
               {{"round", index + 1},
                {"phase", phase},
                {"transfers", round.transfers.size()},
                {"bytes", round_bytes},
                {"timing", measured ? "measured" : "modelled"},
                {"modelled_us", modelled},
                {"critical_gpu", cost.critical_rank},
                {"critical_side", cost.critical_receives ? "receive" : "send"}}));

    for (std::size_t i = 0; i < round.transfers.size(); ++i) {
      const Transfer& transfer = round.transfers[i];
      const TransferTiming& transfer_timing = cost.transfers[i];
      const std::string kind(transfer_kind_name(transfer.kind));
      nlohmann::json args = {{"round", index + 1},
                             {"phase", phase},
                             {"src", transfer.src},
                             {"dst", transfer.dst},
                             {"slot", transfer.slot},
                             {"kind", kind},
                             {"bytes", bytes_of(transfer)}};
      if (!shape.whole_slots()) {
        args["channel"] = transfer.step.channel;
        args["step_round"] = transfer.step.round + 1;
        args["slice"] = transfer.step.slice;
      }
      if (transfer.completes_slot) args["completes_slot"] = true;
      if (transfer.src_slot != Transfer::kSameSlot) args["src_slot"] = transfer.src_slot;
      if (recorded) args["holds"] = recorded->holds[i];

      const double send_ts = round_start + transfer_timing.send_start * scale;
      const double send_dur = transfer_timing.send_seconds * scale;
      const double receive_ts = round_start + transfer_timing.receive_start * scale;
      const double receive_dur = transfer_timing.receive_seconds * scale;
      // AllToAll reads one slot and writes another: the send names the sender's, the receive its own.
      const std::string slice_text = shape.whole_slots() ? "" : " slice " + std::to_string(transfer.step.slice);
      const std::string slot = "slot " + std::to_string(transfer.slot) + slice_text;
      const std::string sent_slot = "slot " + std::to_string(transfer.source_slot()) + slice_text;
      const int send_lane = send_tid(transfer.step.channel);
      const int receive_lane = receive_tid(transfer.step.channel);
      emit(slice(sent_slot + " \u2192 GPU " + std::to_string(transfer.dst), "send", gpu_pid(transfer.src), send_lane,
                 send_ts, send_dur, args));
      emit(flow("s", flow_id, gpu_pid(transfer.src), send_lane, send_ts + send_dur / 2));
      emit(slice(slot + " \u2190 GPU " + std::to_string(transfer.src) + " (" + kind + ")", "receive",
                 gpu_pid(transfer.dst), receive_lane, receive_ts, receive_dur, std::move(args)));
      emit(flow("f", flow_id, gpu_pid(transfer.dst), receive_lane, receive_ts + receive_dur / 2));
      ++flow_id;
    }
    round_start += duration;
  }
}

}  // namespace

nlohmann::json chrome_metadata_event(const char* name, int pid, int tid, nlohmann::json args) {
  return metadata(name, pid, tid, std::move(args));
}

nlohmann::json chrome_slice_event(std::string name, const char* category, int pid, int tid, double ts, double dur,
                                  nlohmann::json args) {
  return slice(std::move(name), category, pid, tid, ts, dur, std::move(args));
}

ChromeTraceOptions chrome_options_on(const Config& config, const std::optional<Topology>& topology) {
  ChromeTraceOptions options;
  if (topology) options.machine = MachineTotal{topology->key, estimate_cost(config, *topology, false).seconds};
  return options;
}

nlohmann::json chrome_trace_json(const Trace& trace, const ChromeTraceOptions& options) {
  std::vector<RoundRecord> rounds;
  for (const TraceRound& round : trace.rounds) rounds.push_back(round_record(trace, round));
  const ChromeTiming timing = chrome_timing(trace, rounds, options);
  nlohmann::json events = nlohmann::json::array();
  emit_events(trace, rounds, timing, [&](nlohmann::json event) { events.push_back(std::move(event)); });
  nlohmann::json document;
  document["traceEvents"] = std::move(events);
  document["displayTimeUnit"] = "ns";
  document["otherData"] = other_data(trace, timing, options);
  return document;
}

void write_chrome_trace(std::ostream& out, const Trace& trace, const ChromeTraceOptions& options) {
  ChromeTraceWriter writer(out, options);
  replay_trace(trace, writer);
}

void ChromeTraceWriter::begin(const Trace&) { rounds_.clear(); }

void ChromeTraceWriter::round(const Trace& trace, const TraceRound& round) {
  rounds_.push_back(round_record(trace, round));
}

// The keys in the order nlohmann::json's dump() sorts them, so the bytes are those of
// chrome_trace_json(...).dump().
void ChromeTraceWriter::end(const Trace& trace) {
  const ChromeTiming timing = chrome_timing(trace, rounds_, options_);
  out_ << R"({"displayTimeUnit":"ns","otherData":)" << other_data(trace, timing, options_).dump()
       << R"(,"traceEvents":[)";
  bool first = true;
  emit_events(trace, rounds_, timing, [&](const nlohmann::json& event) {
    out_ << (first ? "" : ",") << event.dump();
    first = false;
  });
  out_ << "]}\n";
  rounds_.clear();
}

}  // namespace ringviz
