// The `capture` block of a ringviz.trace/1 document (docs/architecture.md, "Capture"), written
// by JsonTraceWriter after everything `trace --format json` writes.
#include <algorithm>

#include "core/trace/trace_json.h"

namespace ringviz {

namespace {

using Json = nlohmann::ordered_json;

Json span_json(const CaptureSpan& span) {
  return Json{{"start_us", span.start_us},     {"posted_us", span.posted_us},
              {"arrived_us", span.arrived_us}, {"end_us", span.end_us},
              {"delay_us", span.delay_us},     {"bytes_sent", span.bytes_sent},
              {"bytes_received", span.bytes_received}};
}

}  // namespace

void JsonTraceWriter::capture(const CaptureRecord& record) {
  key("capture");
  open('{');
  key("transport");
  value(record.transport);
  key("command");
  value(record.command);
  key("snapshot");
  value(snapshot_mode_name(record.snapshot));
  key("clock");
  value(record.clock);
  key("delay");
  value(record.delay ? Json{{"rank", record.delay->rank}, {"us", record.delay->us}} : Json(nullptr));
  key("ranks");
  open('[');
  for (const CaptureRank& rank : record.ranks) {
    next_item();
    value(Json{{"rank", rank.rank},
               {"host", rank.host},
               {"device", rank.device < 0 ? Json(nullptr) : Json(rank.device)},
               {"clock_offset_us", rank.clock_offset_us},
               {"clock_error_us", rank.clock_error_us}});
  }
  close(']');
  key("rounds");
  open('[');
  for (std::size_t index = 0; index < record.rounds.size(); ++index) {
    next_item();
    open('{');
    key("round");
    value(static_cast<int>(index) + 1);
    key("ranks");
    open('[');
    for (const CaptureSpan& span : record.rounds[index]) {
      next_item();
      value(span_json(span));
    }
    close(']');
    close('}');
  }
  close(']');
  key("prediction");
  if (!record.prediction) {
    value(Json(nullptr));
  } else {
    const CapturePrediction& p = *record.prediction;
    const double measured = captured_microseconds(record);
    value(Json{{"what", "NCCL's pick and the time its model predicts (docs/nccl-model.md), beside measured_us"},
               {"topology", p.topology},
               {"machine", p.machine},
               {"algorithm", p.algorithm},
               {"protocol", p.protocol},
               {"channels", p.channels},
               {"predicted_us", p.us},
               {"predicted_busbw_gbps", p.busbw_gbps},
               {"measured_us", measured}});
  }
  close('}');
}

double captured_microseconds(const CaptureRecord& record) {
  if (record.rounds.empty() || record.rounds.front().empty()) return 0;
  double start = record.rounds.front().front().start_us, end = start;
  for (const CaptureSpan& span : record.rounds.front()) start = std::min(start, span.start_us);
  for (const CaptureSpan& span : record.rounds.back()) end = std::max(end, span.end_us);
  return end - start;
}

}  // namespace ringviz
