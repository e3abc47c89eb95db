#include "app/capture/transport/rank_transport.h"

#include <chrono>

namespace ringviz::capture {

double capture_clock_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace ringviz::capture
