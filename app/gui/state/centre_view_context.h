#pragma once
// What the memory, training and compare views get from the GUI around them each frame. They
// never reach into GuiApp: the ring's collective comes in, and the only ways back out are the
// two callbacks, so each view can be drawn (and tested) on its own.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/state/playback.h"
#include "app/gui/render/theme.h"
#include "core/run/job.h"
#include "core/job/job_table.h"
#include "core/model/config.h"
#include "core/model/text.h"
#include "core/run/run_collectives.h"

namespace ringviz {
class Session;
}

namespace ringviz::gui {

struct ViewContext {
  ThemeKind theme = ThemeKind::dark;
  PaletteKind palette = PaletteKind::standard;
  float scale = 1.0f;  // UI scale (content x text)
  Language language = Language::en;  // the language the GUI speaks this frame
  // The collective of the setup panel and where its playback is, for the link view. May be
  // null when no session exists yet.
  const Session* session = nullptr;
  RoundMoment moment;
  // Where the ring view's cells come from and why (the devices view prints it).
  std::string cell_source;
  // While a recorded run replays: each round's measured time from the document (the session
  // only re-executes it in process, so its own times say nothing about the run).
  std::vector<std::optional<double>> recorded_round_us;
  // Runs `config` in the ring view and switches to it; `notice` says what was scaled down.
  std::function<void(const Config& config, const std::string& notice)> open_in_ring;
  // Makes `algorithm` the setup panel's algorithm (from a click in the comparison table).
  std::function<void(Algorithm algorithm)> choose_algorithm;
  // The job open (a job document), its `job show` rows and its collectives, and which of them
  // the ring steps; null without one.
  const Job* job = nullptr;
  const JobTable* job_table = nullptr;
  const std::vector<RunCollective>* job_collectives = nullptr;
  std::size_t job_selected = 0;
  // Steps collective `index` (of job_collectives) on the ring and switches to it.
  std::function<void(std::size_t index)> open_job_collective;
  // Headless frames wait for answers a view computes on a worker (the Compare tab's), so a
  // screenshot shows them and not "computing...".
  bool wait_for_answers = false;
  // Presentation mode: a view may leave out its desktop controls where they would not fit, so
  // that the content an audience reads keeps the room.
  bool presentation = false;
};

}  // namespace ringviz::gui
