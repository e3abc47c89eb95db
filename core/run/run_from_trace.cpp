#include "core/run/run_from_trace.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "core/run/run_validate.h"

namespace ringviz {

namespace {

std::optional<TimeSpan> measured_span(const RecordedRun& recording, int rank) {
  if (recording.capture && !recording.capture->rounds.empty()) {
    // The earliest start and latest end of the rank's rounds: the reader checks each span's
    // order, not that rounds follow one another.
    const auto index = static_cast<std::size_t>(rank);
    TimeSpan span{recording.capture->rounds.front()[index].start_us, recording.capture->rounds.front()[index].end_us};
    for (const std::vector<CaptureSpan>& round : recording.capture->rounds) {
      span.start_us = std::min(span.start_us, round[index].start_us);
      span.end_us = std::max(span.end_us, round[index].end_us);
    }
    return span;
  }
  if (!recording.every_round_timed()) return std::nullopt;
  double total_us = 0;
  for (const RecordedRound& round : recording.rounds) total_us += *round.time_us;
  return TimeSpan{0, total_us};
}

}  // namespace

Run run_of_recording(std::shared_ptr<const RecordedRun> recording) {
  const Config& config = recording->config;
  Run run;
  ProcessGroup& world = run.groups.emplace_back();
  world.name = kWorldGroupName;
  for (int rank = 0; rank < config.ranks; ++rank) {
    world.ranks.push_back(rank);
    CollectiveInstance instance;
    instance.op = config.op;
    instance.group = 0;
    instance.count = config.count;
    instance.dtype = config.dtype;
    instance.reduce = config.reduce;
    instance.algorithm = config.algorithm;
    instance.order = config.order;
    instance.channels = config.channels;
    instance.slices = config.slices;
    if (config.op == Op::broadcast) instance.root = config.root;  // the world group: GPU i is rank i
    instance.bytes = config.count * static_cast<std::int64_t>(dtype_size(config.dtype));
    instance.measured = measured_span(*recording, rank);
    instance.recording = recording;
    run.ranks.emplace_back().collectives.push_back(std::move(instance));
  }
  return run;
}

Run parse_run(std::string_view text, std::string_view source) {
  Run run = run_of_recording(std::make_shared<const RecordedRun>(parse_recorded_run(text, source)));
  // Holds by construction; checked so that a reader change that broke it says so at once.
  validate_or_throw(run, source);
  return run;
}

Run read_run(const std::string& path) {
  Run run = run_of_recording(std::make_shared<const RecordedRun>(read_recorded_run(path)));
  validate_or_throw(run, path);
  return run;
}

}  // namespace ringviz
