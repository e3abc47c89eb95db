#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/model/text.h"
#include "core/trace/trace.h"

namespace ringviz {

// What `ringviz trace` says about a collective, before it is laid out as Markdown or as an
// aligned terminal table: both layouts render this one model, so they never disagree.
struct TextTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

struct ReportBlock {
  enum class Kind { paragraph, list, table };
  Kind kind = Kind::paragraph;
  std::vector<std::string> lines;  // paragraph: one line; list: one item per line
  TextTable table;
};

struct ReportSection {
  std::string heading;
  std::vector<ReportBlock> blocks;
};

struct TraceReport {
  std::string title;
  std::vector<ReportBlock> preamble;
  std::vector<ReportSection> sections;
};

// Values appear next to labels only while they stay small: per-round value tables when every
// slot has at most this many elements and there are at most kValueTableMaxRanks GPUs.
inline constexpr std::int64_t kValueTableMaxSlotElements = 8;
inline constexpr int kValueTableMaxRanks = 8;
// Above this many GPUs a reduce round lists only the chunk that changed, not every chunk.
inline constexpr int kAllChunksMaxRanks = 8;

// Builds the report as a run streams by: header() gives the title, the preamble and the
// inputs; round() the sections of one round; end() the outputs and the traffic (the trace's
// outputs must be filled by then). `trace` must outlive the builder.
class TraceReportBuilder {
 public:
  TraceReportBuilder(const Trace& trace, Language language);
  ~TraceReportBuilder();
  TraceReport header();
  std::vector<ReportSection> round(const TraceRound& round);
  std::vector<ReportSection> end();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// The whole report of a recorded trace.
TraceReport build_trace_report(const Trace& trace, Language language);

}  // namespace ringviz
