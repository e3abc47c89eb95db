#pragma once
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/trace/trace.h"

namespace ringviz {

inline constexpr const char* kTraceSchema = "ringviz.trace/1";

// How much a document prints, counted from the config before anything runs, so that `trace
// --format json` can refuse a document no one can read (README, "ringviz trace").
struct JsonTraceVolume {
  double values = 0;        // buffer values: the inputs, every round's buffers, the outputs
  double contributors = 0;  // rank numbers in every round's contributor sets (N^3 and more for a ring)
  double numbers() const { return values + contributors; }
};

// The numbers the document holds. Contributor sets follow the schedule alone (Provenance), so
// they are counted exactly by walking it without any buffer; once `stop_above` numbers are
// reached the walk stops and the count so far (already too many) is returned. A pipeline too
// large to walk quickly (thousands of pieces a slot on hundreds of GPUs) counts every set full.
JsonTraceVolume json_trace_volume(const Config& config, double stop_above);


// Writes the `ringviz.trace/1` document of docs/architecture.md ("How a round flows") while the
// run goes, one round at a time, so that a 256-GPU trace needs the memory of one round rather
// than of its whole history. Keys keep the schema's order. Elements of a slot that nothing has
// reached yet are null; NaN and the infinities are the strings "nan", "inf", "-inf"; integers
// are exact; floats are the shortest decimal of their own type, and whole floats are written
// without ".0". "time_us" appears on a round only when the backend timed it.
//
// Layout: indented like any pretty JSON, except that arrays of plain values and objects of
// plain values stay on one line, so that a rank's buffer reads as a row.
class JsonTraceWriter : public TraceListener {
 public:
  explicit JsonTraceWriter(std::ostream& out) : out_(out) {}
  void begin(const Trace& trace) override;
  void round(const Trace& trace, const TraceRound& round) override;
  void end(const Trace& trace) override;

 private:
  void open(char bracket);
  void close(char bracket);
  void key(const char* name);
  void next_item();
  void value(const nlohmann::ordered_json& plain);
  void buffers(const Trace& trace, const BufferState& buffers, const Provenance& provenance);
  void contributors(const Trace& trace, const Provenance& provenance);
  void capture(const CaptureRecord& record);  // capture_json.cpp

  std::ostream& out_;
  std::vector<int> items_;  // per open bracket, how many items it holds so far
};

}  // namespace ringviz
