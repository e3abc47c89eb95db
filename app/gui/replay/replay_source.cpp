#include "app/gui/replay/replay_source.h"

#include <filesystem>

#include "app/gui/replay/replay_timing.h"
#include "core/job/job_document.h"
#include "core/model/text.h"
#include "core/run/run_from_trace.h"

namespace ringviz::gui {

void ReplaySource::open(const std::string& path) {
  if (is_job_document_file(path)) return open_job(read_job_document(path), path);
  auto run = std::make_shared<const Run>(read_run(path));
  std::vector<RunCollective> collectives = run_collectives(*run);
  if (collectives.empty()) throw InputError(escape_for_message(path) + ": the run has no collective to replay");
  job_.reset();
  job_table_.reset();
  collectives_ = std::move(collectives);
  run_ = std::move(run);
  path_ = path;
  pacing_ = Pacing::measured;
  select(0);  // a document of one collective has exactly one
}

void ReplaySource::open_job(Job job, const std::string& path) {
  auto shared = std::make_shared<const Job>(std::move(job));
  std::vector<RunCollective> collectives = run_collectives(shared->run);
  if (collectives.empty()) throw InputError(escape_for_message(path) + ": the job has no collective to step through");
  job_table_ = ringviz::job_table(*shared);
  run_ = std::shared_ptr<const Run>(shared, &shared->run);
  job_ = std::move(shared);
  collectives_ = std::move(collectives);
  path_ = path;
  pacing_ = Pacing::measured;
  // The first collective that moves data on more than one rank: a job's first is often a
  // broadcast of a few bytes.
  std::size_t first = 0;
  for (std::size_t i = 0; i < collectives_.size(); ++i)
    if (collectives_[i].members.size() > 1 && collectives_[i].first().op != Op::sendrecv) {
      first = i;
      break;
    }
  select(first);
}

void ReplaySource::select(std::size_t index) {
  selected_ = index < collectives_.size() ? index : 0;
  config_ = collective_config(*run_, collectives_[selected_]);
  mismatch_.reset();
}

std::optional<double> ReplaySource::measured_span() const {
  if (!active()) return std::nullopt;
  std::optional<double> longest;
  for (const CollectiveInstance* member : collective().members)
    if (member && member->measured) {
      const double us = member->measured->end_us - member->measured->start_us;
      if (!longest || us > *longest) longest = us;
    }
  return longest;
}

void ReplaySource::close() {
  run_.reset();
  job_table_.reset();
  job_.reset();
  collectives_.clear();
  selected_ = 0;
  path_.clear();
  mismatch_.reset();
}

std::string ReplaySource::file_name() const { return std::filesystem::path(path_).filename().string(); }

std::vector<double> ReplaySource::round_seconds() const {
  return pacing() == Pacing::measured ? measured_round_seconds(*recording()) : std::vector<double>{};
}

std::shared_ptr<const RecordedRun> ReplaySource::shared_recording() const {
  return active() ? collective().first().recording : nullptr;
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
