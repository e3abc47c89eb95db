#include "app/gui/replay/replay_source.h"

#include <filesystem>

#include "app/gui/replay/replay_timing.h"
#include "core/model/text.h"
#include "core/run/run_from_trace.h"

namespace ringviz::gui {

void ReplaySource::open(const std::string& path) {
  auto run = std::make_shared<const Run>(read_run(path));
  std::vector<RunCollective> collectives = run_collectives(*run);
  if (collectives.empty()) throw InputError(escape_for_message(path) + ": the run has no collective to replay");
  // A document of one collective has exactly one; the ring shows the run's first.
  collective_ = std::move(collectives.front());
  config_ = collective_config(*run, collective_);
  run_ = std::move(run);
  path_ = path;
  pacing_ = Pacing::measured;
  mismatch_.reset();
}

void ReplaySource::close() {
  run_.reset();
  collective_ = {};
  path_.clear();
  mismatch_.reset();
}

std::string ReplaySource::file_name() const { return std::filesystem::path(path_).filename().string(); }

std::vector<double> ReplaySource::round_seconds() const {
  return pacing() == Pacing::measured ? measured_round_seconds(*recording()) : std::vector<double>{};
}

std::shared_ptr<const RecordedRun> ReplaySource::shared_recording() const {
  return active() ? collective_.first().recording : nullptr;
}

const CaptureRecord* ReplaySource::capture() const {
  const RecordedRun* recorded = recording();
  return recorded && recorded->capture ? &*recorded->capture : nullptr;
}

std::vector<std::optional<double>> ReplaySource::recorded_round_us() const {
  std::vector<std::optional<double>> times;
  if (const RecordedRun* recorded = recording())
    for (const RecordedRound& round : recorded->rounds) times.push_back(round.time_us);
  return times;
}

void ReplaySource::check_against(Session& session) {
  const RecordedRun* recorded = recording();
  mismatch_ = recorded ? first_recorded_mismatch(*recorded, session) : std::nullopt;
}

}  // namespace ringviz::gui
