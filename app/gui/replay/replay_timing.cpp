#include "app/gui/replay/replay_timing.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/state/playback.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

std::vector<double> measured_round_seconds(const RecordedRun& run) {
  if (!run.every_round_timed()) return {};
  double total_us = 0;
  for (const RecordedRound& round : run.rounds) total_us += *round.time_us;
  if (!(total_us > 0)) return {};
  const double whole = static_cast<double>(run.rounds.size()) * kSecondsPerRound;
  std::vector<double> seconds;
  for (const RecordedRound& round : run.rounds)
    seconds.push_back(std::max(kMinMeasuredRoundSeconds, whole * *round.time_us / total_us));
  return seconds;
}

RoundWait longest_wait(const CaptureRecord& capture, const Round& round, int round_index) {
  RoundWait longest;
  if (round_index < 0 || round_index >= static_cast<int>(capture.rounds.size())) return longest;
  const std::vector<CaptureSpan>& spans = capture.rounds[static_cast<std::size_t>(round_index)];
  for (int rank = 0; rank < static_cast<int>(spans.size()); ++rank) {
    int last_sender = -1;
    for (const Transfer& transfer : round.transfers) {
      if (transfer.dst != rank) continue;
      if (last_sender < 0 || spans[static_cast<std::size_t>(transfer.src)].posted_us >
                                 spans[static_cast<std::size_t>(last_sender)].posted_us)
        last_sender = transfer.src;
    }
    const CaptureSpan& own = spans[static_cast<std::size_t>(rank)];
    const double wait = own.arrived_us - own.posted_us;
    if (last_sender >= 0 && (longest.rank < 0 || wait > longest.wait_us)) longest = {rank, last_sender, wait};
  }
  return longest;
}

std::string duration_text(double microseconds) {
  char text[32];
  if (microseconds < 1000) std::snprintf(text, sizeof text, "%.0f \xC2\xB5s", microseconds);
  else if (microseconds < 1e6) std::snprintf(text, sizeof text, "%.3g ms", microseconds / 1e3);
  else std::snprintf(text, sizeof text, "%.3g s", microseconds / 1e6);
  return text;
}

std::string measured_caption(const RecordedRun& run, const Round& round, int round_number, Language language) {
  const UiStrings& t = ui_strings_for(language);
  const int index = round_number - 1;
  if (index < 0 || index >= static_cast<int>(run.rounds.size())) return "";
  const std::optional<double>& time = run.rounds[static_cast<std::size_t>(index)].time_us;
  if (!time) return "";
  std::string line = format(t.replay_round_time, round_number, duration_text(*time).c_str());
  if (!run.capture) return line;
  const RoundWait wait = longest_wait(*run.capture, round, index);
  if (wait.rank >= 0)
    line += format(t.replay_round_wait, wait.rank, duration_text(wait.wait_us).c_str(), wait.waited_for);
  return line;
}

}  // namespace ringviz::gui
