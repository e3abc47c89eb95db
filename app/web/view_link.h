#pragma once
// A link is a view (docs/architecture.md, "The browser build"): the URL fragment holds what the
// Copy command's command line holds, as key=value pairs (#op=allreduce&gpus=8&round=3.5&view=
// memory&lang=zh), and is read back by the GUI's own flags, so a link accepts exactly what
// `ringviz` accepts and is refused with the same words. No value is parsed here.
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/share/view_command.h"

namespace ringviz::web {

// A lesson the view plays, and its scene (1-based), as the page's own keys of a link
// (lesson=06-ddp-vs-zero2&scene=3): the command line opens lessons with `ringviz record`.
struct LinkLesson {
  std::string name;   // a shipped lesson's file name without .json; "" when none
  std::string scene;  // as typed; checked against the lesson's scenes when it is loaded
};

// "#op=allreduce&gpus=8&...": view_command_args(state) with each "--flag value" as flag=value,
// a flag without a value as the bare flag, values percent-encoded where a URL needs it, then
// the lesson and its scene when one plays.
std::string view_link_fragment(const gui::ViewState& state, const LinkLesson& lesson = {});

// The fragment ("#" optional) as the command-line arguments it stands for ("--op", "allreduce",
// ...), percent-decoded, and the lesson keys apart. Keys must be the link's own (those
// view_link_fragment writes): anything else (an output path, --headless) throws InputError
// naming it.
std::vector<std::string> fragment_arguments(std::string_view fragment, LinkLesson* lesson = nullptr);

}  // namespace ringviz::web
