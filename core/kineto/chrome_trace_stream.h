#pragma once
// A Chrome trace (the JSON a profiler exports) walked event by event: each element of
// `traceEvents` is built alone, handed over and dropped, so a trace of any length is read with
// the memory of one event; the other top-level members (metadata such as `distributedInfo`)
// are small and handed over whole.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ringviz {

class ChromeTraceSink {
 public:
  virtual ~ChromeTraceSink() = default;
  // A top-level member other than `traceEvents`.
  virtual void member(std::string_view key, const nlohmann::json& value) = 0;
  // traceEvents[index]; an event that is not an object is handed over too, for the sink to judge.
  virtual void event(std::int64_t index, const nlohmann::json& event) = 0;
};

struct ChromeTraceSummary {
  bool has_trace_events = false;
  std::int64_t events = 0;
  std::uint64_t text_bytes = 0;  // decompressed
  std::uint64_t file_bytes = 0;
};

// Streams the trace at `path` (.json or gzip) into `sink`. A file that is not JSON, or whose top
// level is not an object, throws InputError "<path>:<line>:<column>: <problem>". Errors thrown by
// the sink pass through unchanged.
ChromeTraceSummary stream_chrome_trace(const std::string& path, ChromeTraceSink& sink);

}  // namespace ringviz
