#pragma once
// The listener rank 0 hands a captured run to (docs/architecture.md, "Capture").
#include <memory>
#include <ostream>

#include "app/capture/capture_options.h"
#include "core/trace/trace.h"

namespace ringviz::capture {

// `writes` false: a listener that writes nothing (a --batch check without --out).
std::unique_ptr<TraceListener> make_capture_writer(std::ostream& out, CaptureFormat format, bool writes);

}  // namespace ringviz::capture
