#pragma once
// `ringviz compare --fit run.json`: α and β per link class fitted to a captured run, and the
// fit's prediction beside the measured time of every round.
#include <string>

#include "app/options/config_flags.h"
#include "core/model/text.h"

namespace ringviz::cli {

// Prints the fit as a table or JSON; returns the exit code. Throws InputError for a bad file.
int run_fit(const std::string& path, ReportFormat format, Language language = Language::en);

}  // namespace ringviz::cli
