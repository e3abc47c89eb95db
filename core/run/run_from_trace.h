#pragma once
// A `ringviz.trace/1` document (`trace --format json` output or a capture) as a run of one
// collective (docs/architecture.md, "The Run model"): one group "world" of every rank and one
// instance per rank, all sharing the document as their recording.
#include <memory>
#include <string>
#include <string_view>

#include "core/run/run.h"
#include "core/trace/trace_read.h"

namespace ringviz {

// The group name a one-collective run gives its ranks.
inline constexpr const char* kWorldGroupName = "world";

// Each rank's measured span comes from a capture (its first round's start to its last round's
// end), else, where the backend timed every round, the rounds' total from 0 for every rank.
Run run_of_recording(std::shared_ptr<const RecordedRun> recording);

// parse_recorded_run / read_recorded_run, then run_of_recording: every problem is the
// reader's one line "<file>:<line>:<column>: <where>: <problem>".
Run parse_run(std::string_view text, std::string_view source);
Run read_run(const std::string& path);

}  // namespace ringviz
