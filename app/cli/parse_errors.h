#pragma once
// What a command line that CLI11 refuses is told, in our words, for `ringviz`, every
// subcommand and `ringviz capture` alike (README, "Troubleshooting": one `ringviz: ...` line,
// exit 2).
#include <string>

#include <CLI/CLI.hpp>

namespace ringviz::cli {

// Every option of `app` and of its subcommands that takes a value refuses an empty one
// (`--view ""`), naming the flag: an empty value would otherwise read as "not given" and
// quietly become the default. `help` is the command whose --help lists the values. Call once
// every option is registered.
void refuse_empty_values(CLI::App& app, const std::string& help);

// One line for `error`, thrown while `app` parsed: a flag given twice says so and asks for
// one; arguments no option takes are listed in the order typed, with the subcommand that has
// such an option when one does (`--lesson` belongs to `ringviz record`); anything else is
// CLI11's sentence with the --help to read.
std::string parse_error_message(const CLI::ParseError& error, const CLI::App& app, const std::string& help);

}  // namespace ringviz::cli
