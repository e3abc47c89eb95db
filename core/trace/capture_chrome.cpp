#include "core/trace/capture_chrome.h"

#include <cmath>
#include <string>

#include "core/schedule/rounds.h"
#include "core/trace/chrome_trace.h"

namespace ringviz {

namespace {

constexpr int kRanksPid = 1;
int rank_tid(int rank) { return rank + 1; }

// A slice only where the span lasted: zero-length waits would clutter every track.
void add_phase(nlohmann::json& events, const char* name, int rank, double from, double to, nlohmann::json args) {
  if (to > from) events.push_back(chrome_slice_event(name, name, kRanksPid, rank_tid(rank), from, to - from, std::move(args)));
}

bool receives_reduction(const Round& round, int rank) {
  for (const Transfer& transfer : round.transfers)
    if (transfer.dst == rank && transfer.kind == TransferKind::reduce) return true;
  return false;
}

// A difference of two recorded times carries binary-fraction noise (1.6129999999999995); a
// thousandth of a microsecond is finer than the clocks resolve.
double round_microseconds(double microseconds) { return std::round(microseconds * 1000) / 1000; }

}  // namespace

void CaptureChromeWriter::end(const Trace& trace) {
  nlohmann::json events = nlohmann::json::array();
  if (!trace.capture) return;
  const CaptureRecord& capture = *trace.capture;
  events.push_back(chrome_metadata_event("process_name", kRanksPid, 0,
                                         {{"name", "ringviz capture (" + capture.transport + ")"}}));
  for (const CaptureRank& rank : capture.ranks) {
    std::string name = "rank " + std::to_string(rank.rank) + " (" + rank.host + ")";
    events.push_back(chrome_metadata_event("thread_name", kRanksPid, rank_tid(rank.rank), {{"name", name}}));
    events.push_back(chrome_metadata_event("thread_sort_index", kRanksPid, rank_tid(rank.rank), {{"sort_index", rank.rank}}));
  }
  for (std::size_t index = 0; index < capture.rounds.size(); ++index) {
    const std::string phase(phase_name(trace.schedule.rounds[index].phase));
    for (std::size_t rank = 0; rank < capture.rounds[index].size(); ++rank) {
      const CaptureSpan& span = capture.rounds[index][rank];
      const int r = static_cast<int>(rank);
      events.push_back(chrome_slice_event("round " + std::to_string(index + 1) + " " + phase, "round", kRanksPid,
                                          rank_tid(r), span.start_us, span.end_us - span.start_us,
                                          {{"bytes_sent", span.bytes_sent}, {"bytes_received", span.bytes_received}}));
      add_phase(events, "delay", r, span.posted_us - span.delay_us, span.posted_us, {{"us", round_microseconds(span.delay_us)}});
      add_phase(events, "wait", r, span.posted_us, span.arrived_us, {{"us", round_microseconds(span.arrived_us - span.posted_us)}});
      // After the receives: the fold (a reduction or a copy) and the wait for this rank's own
      // sends to complete, as the GUI's timeline names it.
      add_phase(events, receives_reduction(trace.schedule.rounds[index], r) ? "reduce, finish" : "copy, finish", r,
                span.arrived_us, span.end_us, {{"us", round_microseconds(span.end_us - span.arrived_us)}});
    }
  }
  nlohmann::json document;
  document["traceEvents"] = std::move(events);
  document["displayTimeUnit"] = "ns";
  document["otherData"] = {{"command", capture.command}, {"clock", capture.clock}};
  out_ << document.dump() << "\n";
}

}  // namespace ringviz
