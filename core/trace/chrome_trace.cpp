#include "core/trace/chrome_trace.h"

#include <string>

namespace ringviz {

namespace {

// Process ids: 0 holds the rounds track, GPU r is process r + 1 with threads 1 (send) and
// 2 (receive).
constexpr int kRoundsPid = 0;
constexpr int kSendTid = 1;
constexpr int kReceiveTid = 2;
int gpu_pid(int rank) { return rank + 1; }

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

bool every_round_measured(const Trace& trace) {
  if (trace.rounds.empty()) return false;
  for (const TraceRound& round : trace.rounds)
    if (!round.microseconds) return false;
  return true;
}

}  // namespace

nlohmann::json chrome_trace_json(const Trace& trace, const ChromeTraceOptions& options) {
  const Config& config = trace.config;
  const int n = config.ranks;
  const CostEstimate model = estimate_cost(config, trace.schedule, trace.layout, options.link);
  const bool measured = options.prefer_measured && every_round_measured(trace);
  const std::int64_t element = static_cast<std::int64_t>(dtype_size(config.dtype));

  nlohmann::json events = nlohmann::json::array();
  const std::string title = std::string(op_name(config.op)) + " (" + std::string(algorithm_name(config.algorithm)) +
                            ", " + std::to_string(n) + " GPUs)";
  events.push_back(metadata("process_name", kRoundsPid, 0, {{"name", title}}));
  events.push_back(metadata("process_sort_index", kRoundsPid, 0, {{"sort_index", -1}}));
  events.push_back(metadata("thread_name", kRoundsPid, 0, {{"name", "rounds"}}));
  for (int rank = 0; rank < n; ++rank) {
    const int pid = gpu_pid(rank);
    events.push_back(metadata("process_name", pid, 0, {{"name", "GPU " + std::to_string(rank)}}));
    events.push_back(metadata("process_sort_index", pid, 0, {{"sort_index", rank}}));
    events.push_back(metadata("thread_name", pid, kSendTid, {{"name", "send"}}));
    events.push_back(metadata("thread_name", pid, kReceiveTid, {{"name", "receive"}}));
    events.push_back(metadata("thread_sort_index", pid, kSendTid, {{"sort_index", 0}}));
    events.push_back(metadata("thread_sort_index", pid, kReceiveTid, {{"sort_index", 1}}));
  }

  double round_start = 0;  // µs
  std::int64_t flow_id = 0;
  for (std::size_t index = 0; index < trace.schedule.rounds.size(); ++index) {
    const Round& round = trace.schedule.rounds[index];
    const RoundCost& cost = model.per_round[index];
    const double modelled = cost.seconds * 1e6;
    const TraceRound* recorded = index < trace.rounds.size() ? &trace.rounds[index] : nullptr;
    const double duration = measured ? *recorded->microseconds : modelled;
    // Model seconds -> trace µs inside this round.
    const double scale = modelled > 0 ? duration / cost.seconds : 1e6;
    const std::string phase(phase_name(round.phase));

    std::int64_t round_bytes = 0;
    for (const Transfer& transfer : round.transfers) round_bytes += trace.layout[transfer.slot].count * element;
    events.push_back(slice("round " + std::to_string(index + 1) + " " + phase, "round", kRoundsPid, 0, round_start,
                           duration,
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
      const TransferTiming& timing = cost.transfers[i];
      const std::string kind(transfer_kind_name(transfer.kind));
      nlohmann::json args = {{"round", index + 1},
                             {"phase", phase},
                             {"src", transfer.src},
                             {"dst", transfer.dst},
                             {"slot", transfer.slot},
                             {"kind", kind},
                             {"bytes", trace.layout[transfer.slot].count * element}};
      if (transfer.completes_slot) args["completes_slot"] = true;
      if (recorded)
        args["holds"] = slot_label(config.op, recorded->provenance.at(transfer.dst, transfer.slot), transfer.slot);

      const double send_ts = round_start + timing.send_start * scale;
      const double send_dur = timing.send_seconds * scale;
      const double receive_ts = round_start + timing.receive_start * scale;
      const double receive_dur = timing.receive_seconds * scale;
      const std::string slot = "slot " + std::to_string(transfer.slot);
      events.push_back(slice(slot + " \u2192 GPU " + std::to_string(transfer.dst), "send", gpu_pid(transfer.src),
                             kSendTid, send_ts, send_dur, args));
      events.push_back(flow("s", flow_id, gpu_pid(transfer.src), kSendTid, send_ts + send_dur / 2));
      events.push_back(slice(slot + " \u2190 GPU " + std::to_string(transfer.src) + " (" + kind + ")", "receive",
                             gpu_pid(transfer.dst), kReceiveTid, receive_ts, receive_dur, std::move(args)));
      events.push_back(flow("f", flow_id, gpu_pid(transfer.dst), kReceiveTid, receive_ts + receive_dur / 2));
      ++flow_id;
    }
    round_start += duration;
  }

  nlohmann::json document;
  document["traceEvents"] = std::move(events);
  document["displayTimeUnit"] = "ns";
  document["otherData"] = {{"generator", std::string("ringviz ") + RINGVIZ_VERSION},
                           {"op", op_name(config.op)},
                           {"algorithm", algorithm_name(config.algorithm)},
                           {"ranks", n},
                           {"count", config.count},
                           {"dtype", dtype_name(config.dtype)},
                           {"reduce", reduce_op_name(config.reduce)},
                           {"backend", trace.backend},
                           {"timing", measured ? "measured" : "modelled"},
                           {"link", options.link.key},
                           {"link_label", options.link.label},
                           {"modelled_us", model.seconds * 1e6},
                           {"total_us", round_start}};
  return document;
}

void write_chrome_trace(std::ostream& out, const Trace& trace, const ChromeTraceOptions& options) {
  out << chrome_trace_json(trace, options).dump() << "\n";
}

}  // namespace ringviz
