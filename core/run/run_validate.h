#pragma once
// The rules every Run keeps (docs/architecture.md, "The Run model"), checked where a run
// enters: groups name existing ranks once each; every instance is on a group its rank is in,
// with sizes a schedule can take; the instances matched as one collective agree on what it
// is; each rank's times do not run backwards.
#include <optional>
#include <string>
#include <string_view>

#include "core/run/run.h"

namespace ringviz {

// The first rule `run` breaks, as one sentence naming the rank, group and collective; nullopt
// when it keeps them all.
std::optional<std::string> validate(const Run& run);
// Throws InputError "<source>: <problem>".
void validate_or_throw(const Run& run, std::string_view source);

}  // namespace ringviz
