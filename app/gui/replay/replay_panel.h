#pragma once
// The top of the setup panel: the Open control, or, while a recorded run is open, what it is
// ("Replaying run.json (mpi, 4 ranks on 2 hosts)"), its pacing, a warning when its buffers
// differ from the engine's, and Close; for a job, which of its collectives the ring steps, with
// Previous and Next.
#include <optional>
#include <string>

#include "app/gui/render/theme.h"
#include "app/gui/replay/open_control.h"
#include "app/gui/replay/replay_source.h"
#include "core/model/text.h"

namespace ringviz::gui {

// "Replaying run.json (mpi, 4 ranks on 2 hosts)", in the UI language.
std::string replay_summary(const ReplaySource& replay, Language language);
// The warning of a recorded buffer that differs from the engine's.
std::string mismatch_text(const RecordedMismatch& mismatch, DType dtype, Language language);
// A capture's measured time and what NCCL's model predicts for its collective on one NVSwitch
// of its ranks (as `ringviz capture` assumes); "" for other replays or an op the model lacks.
std::string replay_model_line(const ReplaySource& replay, Language language);

struct ReplayPanelAction {
  std::optional<std::string> open;  // a document to open
  bool close = false;
  bool pacing_changed = false;
  std::optional<std::size_t> select;  // a job's collective to step instead (Previous, Next)
};

class ReplayPanel {
 public:
  ReplayPanelAction draw(ReplaySource& replay, ThemeKind theme, Language language);

 private:
  OpenControl open_;
  // replay_model_line() for the capture and language it was worded for: the model runs once per
  // replay, not once per frame.
  const CaptureRecord* model_line_capture_ = nullptr;
  Language model_line_language_ = Language::en;
  std::string model_line_;
};

}  // namespace ringviz::gui
