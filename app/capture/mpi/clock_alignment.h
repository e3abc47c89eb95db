#pragma once
// Each rank's steady clock against rank 0's (docs/architecture.md, "Capture"): rank 0 sends its
// time, the rank answers with its own, and rank 0 notes when the answer came back. Taking rank
// 0's clock to have read the midpoint when the rank stamped its answer, the offset is
// rank_time - (sent + returned) / 2, wrong by at most half the round trip; the ping-pong with
// the smallest round trip of kClockPingPongs gives the offset and its error bound.
#include <vector>

namespace ringviz::capture {

inline constexpr int kClockPingPongs = 64;

struct ClockOffset {
  double offset_seconds = 0;  // rank clock minus rank 0 clock
  double error_seconds = 0;   // half the smallest round trip
};

// Collective. On rank 0: one offset per rank (rank 0's own is zero); empty elsewhere.
std::vector<ClockOffset> measure_clock_offsets();

// The capture block's "clock" sentence.
const char* clock_method_text();

}  // namespace ringviz::capture
