#include "app/gui/replay/replay_source.h"

#include <filesystem>

#include "app/gui/replay/replay_timing.h"

namespace ringviz::gui {

void ReplaySource::open(const std::string& path) {
  auto run = std::make_shared<const RecordedRun>(read_recorded_run(path));
  run_ = std::move(run);
  path_ = path;
  pacing_ = Pacing::measured;
  mismatch_.reset();
}

void ReplaySource::close() {
  run_.reset();
  path_.clear();
  mismatch_.reset();
}

std::string ReplaySource::file_name() const { return std::filesystem::path(path_).filename().string(); }

std::vector<double> ReplaySource::round_seconds() const {
  return pacing() == Pacing::measured ? measured_round_seconds(*run_) : std::vector<double>{};
}

}  // namespace ringviz::gui
