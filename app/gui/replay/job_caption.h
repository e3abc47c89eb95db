#pragma once
// The ring's caption while it steps a collective of an imported job: which collective it is
// (a DDP bucket, or its place in the job), its size and type, the op with what NCCL chose
// (algorithm, protocol, channels), its measured time and bus bandwidth against the peak of the
// link the job most likely used, and that the cells are the schedule's, not the job's data.
#include <string>

#include "app/gui/replay/replay_source.h"
#include "core/model/text.h"

namespace ringviz::gui {

// Empty unless `replay` holds a job. The recording stage's one-line header leaves out the link's
// peak (`with_peak`) and the note on the cells (`with_note`) when they do not fit.
std::string job_caption(const ReplaySource& replay, Language language, bool with_peak = true, bool with_note = true);

}  // namespace ringviz::gui
