#pragma once
// A recorded run open in the GUI (`--open FILE`, the Open control): the document read into a
// Run, the collective of it the ring steps, how it is paced, and whether its buffers agree
// with the in-process engine (docs/architecture.md, "Replaying a recorded run"). A job document
// (docs/job-format.md) is a run of many collectives: the Job view chooses which one the ring
// steps.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/session.h"
#include "core/run/job.h"
#include "core/job/job_table.h"
#include "core/run/run.h"
#include "core/run/run_collectives.h"
#include "core/trace/recorded_compare.h"
#include "core/trace/trace_read.h"

namespace ringviz::gui {

enum class Pacing { measured, even };
inline constexpr EnumName<Pacing> kPacingNames[] = {{Pacing::measured, "measured"}, {Pacing::even, "even"}};
inline constexpr EnumNamer pacing_name{kPacingNames};

class ReplaySource {
 public:
  // Reads `path` (a ringviz.trace/1 document or a ringviz.job/1 job); throws InputError
  // (file:line:column) and keeps what was open before. Measured pacing is the default wherever
  // the times are known.
  void open(const std::string& path);
  // A job already read, as if opened from `path`.
  void open_job(Job job, const std::string& path);
  void close();
  bool active() const { return run_ != nullptr; }

  // The file as a run (a `ringviz.trace/1` document is a run of one collective), the
  // collective of it on the ring, and the config a Session steps that collective with.
  const Run& run() const { return *run_; }
  const RunCollective& collective() const { return collectives_[selected_]; }
  // Every collective of the run, group by group (run_collectives), and which the ring shows.
  const std::vector<RunCollective>& collectives() const { return collectives_; }
  std::size_t selected() const { return selected_; }
  // Shows collective `index` of the run (an index into collectives()).
  void select(std::size_t index);
  // The job, where a job document is open: its facts and its `job show` rows.
  const Job* job() const { return job_.get(); }
  const JobTable* job_table() const { return job_table_ ? &*job_table_ : nullptr; }
  const Config& config() const { return config_; }
  // The shown collective's recorded rounds and buffers, and its capture; null where the run
  // does not have them.
  const RecordedRun* recording() const { return shared_recording().get(); }
  std::shared_ptr<const RecordedRun> shared_recording() const;
  const CaptureRecord* capture() const;
  // Each round's recorded time (the devices view's clock during a replay); empty without a
  // recording.
  std::vector<std::optional<double>> recorded_round_us() const;
  const std::string& path() const { return path_; }
  std::string file_name() const;

  bool measured_available() const { return recording() && recording()->every_round_timed(); }
  // The shown collective's measured time on its slowest traced rank, where a job measured it
  // (one time for the whole collective: its rounds play evenly, and the caption says the time).
  std::optional<double> measured_span() const;
  Pacing pacing() const { return measured_available() ? pacing_ : Pacing::even; }
  void set_pacing(Pacing pacing) { pacing_ = pacing; }
  // Seconds per round at 1x for the playback; empty under even pacing.
  std::vector<double> round_seconds() const;

  // Compares the recorded buffers with `session` (running config()); the first difference
  // stays until the next open.
  void check_against(Session& session);
  const std::optional<RecordedMismatch>& mismatch() const { return mismatch_; }

 private:
  std::shared_ptr<const Job> job_;  // null for a ringviz.trace/1 document
  std::optional<JobTable> job_table_;  // points into *job_
  std::shared_ptr<const Run> run_;  // the job's run, or the document's
  std::vector<RunCollective> collectives_;  // point into *run_, which every copy shares
  std::size_t selected_ = 0;
  Config config_;
  std::string path_;
  Pacing pacing_ = Pacing::measured;
  std::optional<RecordedMismatch> mismatch_;
};

}  // namespace ringviz::gui
