#pragma once
// A recorded run open in the GUI (`--open FILE`, the Open control): the document, how it is
// paced, and whether its buffers agree with the in-process engine (docs/architecture.md,
// "Replaying a recorded run").
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/session.h"
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

  const RecordedRun& run() const { return *run_; }
  std::shared_ptr<const RecordedRun> shared_run() const { return run_; }
  const std::string& path() const { return path_; }
  std::string file_name() const;

  bool measured_available() const { return run_ && run_->every_round_timed(); }
  Pacing pacing() const { return measured_available() ? pacing_ : Pacing::even; }
  void set_pacing(Pacing pacing) { pacing_ = pacing; }
  // Seconds per round at 1x for the playback; empty under even pacing.
  std::vector<double> round_seconds() const;

  // Compares the recorded buffers with `session` (running run().config); the first
  // difference stays until the next open.
  void check_against(Session& session) { mismatch_ = first_recorded_mismatch(*run_, session); }
  const std::optional<RecordedMismatch>& mismatch() const { return mismatch_; }

 private:
  std::shared_ptr<const RecordedRun> run_;
  std::string path_;
  Pacing pacing_ = Pacing::measured;
  std::optional<RecordedMismatch> mismatch_;
};

}  // namespace ringviz::gui
