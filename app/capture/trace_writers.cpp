#include "app/capture/trace_writers.h"

#include "core/trace/capture_chrome.h"
#include "core/trace/trace_json.h"

namespace ringviz::capture {

namespace {

class SilentListener final : public TraceListener {
 public:
  void begin(const Trace&) override {}
  void round(const Trace&, const TraceRound&) override {}
  void end(const Trace&) override {}
};

}  // namespace

std::unique_ptr<TraceListener> make_capture_writer(std::ostream& out, CaptureFormat format, bool writes) {
  if (!writes) return std::make_unique<SilentListener>();
  if (format == CaptureFormat::chrome) return std::make_unique<CaptureChromeWriter>(out);
  return std::make_unique<JsonTraceWriter>(out);
}

}  // namespace ringviz::capture
