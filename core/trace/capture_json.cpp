// The `capture` block of a ringviz.trace/1 document (docs/architecture.md, "Capture"), written
// by JsonTraceWriter after everything `trace --format json` writes.
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
  close('}');
}

}  // namespace ringviz
