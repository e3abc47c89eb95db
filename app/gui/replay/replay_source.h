#pragma once
// A recorded run open in the GUI (`--open FILE`, the Open control): the document read into a
// Run, the collective of it the ring steps, how it is paced, and whether its buffers agree
// with the in-process engine (docs/architecture.md, "Replaying a recorded run").
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/session.h"
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
  // Reads `path`; throws InputError (file:line:column) and keeps what was open before.
  // Measured pacing is the default wherever every round has a time.
  void open(const std::string& path);
  void close();
  bool active() const { return run_ != nullptr; }

  // The file as a run (a `ringviz.trace/1` document is a run of one collective), the
  // collective of it on the ring, and the config a Session steps that collective with.
  const Run& run() const { return *run_; }
  const RunCollective& collective() const { return collective_; }
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
  Pacing pacing() const { return measured_available() ? pacing_ : Pacing::even; }
  void set_pacing(Pacing pacing) { pacing_ = pacing; }
  // Seconds per round at 1x for the playback; empty under even pacing.
  std::vector<double> round_seconds() const;

  // Compares the recorded buffers with `session` (running config()); the first difference
  // stays until the next open.
  void check_against(Session& session);
  const std::optional<RecordedMismatch>& mismatch() const { return mismatch_; }

 private:
  std::shared_ptr<const Run> run_;
  RunCollective collective_;  // points into *run_, which every copy shares
  Config config_;
  std::string path_;
  Pacing pacing_ = Pacing::measured;
  std::optional<RecordedMismatch> mismatch_;
};

}  // namespace ringviz::gui
