#pragma once
// The `ringviz ...` command line that opens what the GUI shows now (the Copy command button),
// as a pure function of that state so that tests can parse it back with the GUI's own flags
// (docs/architecture.md, "Copy command").
#include <string>
#include <vector>

#include "app/gui/views/centre_view.h"
#include "core/model/config.h"
#include "core/model/text.h"

namespace ringviz::gui {

// What the command reproduces: the collective, where the timeline stands, the centre view,
// the language and the classroom modes. Everything else (theme, window size) is a preference.
struct ViewState {
  Config config;
  std::string open;  // a recorded run being replayed: --open PATH instead of the collective's flags
  CentreView view = CentreView::ring;
  double round = 0;  // the timeline position (--round): 2.5 = halfway through round 3
  Language language = Language::en;
  bool present = false;
  bool predict = false;
};

// The arguments after "ringviz", unquoted, in the CLI's spelling. --op, --gpus and --count are
// always there (they say what the picture is), and --lang (else the saved language would win);
// every other flag only when it is not the default.
std::vector<std::string> view_command_args(const ViewState& state);

// One word for a POSIX shell: as it is when it holds only characters no shell treats specially,
// else in single quotes (a quote inside becoming '\'').
std::string shell_quote(const std::string& word);

// "ringviz --op allreduce --gpus 4 --count 8 --lang en ...": the arguments quoted and joined by spaces.
std::string view_command(const ViewState& state);

}  // namespace ringviz::gui
