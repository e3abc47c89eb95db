#pragma once
// What a recorded run's times mean on screen: how long each round plays, and who waited for
// whom (docs/architecture.md, "Replaying a recorded run"). No ImGui: tested as plain logic.
#include <string>
#include <vector>

#include "core/model/text.h"
#include "core/schedule/rounds.h"
#include "core/trace/trace_read.h"

namespace ringviz::gui {

// The shortest a round plays at 1x under measured pacing: below it the packets of a fast round
// would flicker past unseen.
inline constexpr double kMinMeasuredRoundSeconds = 0.5;

// Seconds each round plays at 1x, in proportion to its measured time, scaled so the whole run
// lasts what even pacing would (rounds x kSecondsPerRound), each at least
// kMinMeasuredRoundSeconds. Empty (even pacing) when a round has no time or all are zero.
std::vector<double> measured_round_seconds(const RecordedRun& run);

// The longest wait of one round: the rank that waited longest for its receives (arrived minus
// posted), and the source it waited for, the last of its senders to post.
struct RoundWait {
  int rank = -1;        // -1: no rank received anything
  int waited_for = -1;
  double wait_us = 0;
};
RoundWait longest_wait(const CaptureRecord& capture, const Round& round, int round_index);

// "950 µs", "1.8 ms", "2.41 s": a measured time as a caption says it.
std::string duration_text(double microseconds);

// The caption line of the measured run for 1-based `round`: "round 3: 1.8 ms; GPU 2 waited
// 1.2 ms for GPU 1", in the UI language; without a capture only the round's time; empty when
// the round has no time.
std::string measured_caption(const RecordedRun& run, const Round& round, int round_number, Language language);

}  // namespace ringviz::gui
