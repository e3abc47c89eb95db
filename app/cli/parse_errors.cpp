#include "app/cli/parse_errors.h"

#include <vector>

#include "core/model/input_error.h"
#include "core/model/text.h"

namespace ringviz::cli {

namespace {

void refuse_empty_values_of(CLI::App& app, const std::string& help) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_type_size_max() == 0) continue;  // a flag: it takes no value
    const std::string name = option->get_name();
    option->each([name, help](const std::string& value) {
      if (value.empty()) throw InputError(name + ": '' is an empty value; give one (see " + help + ")");
    });
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    refuse_empty_values_of(*sub, help == "ringviz --help" ? "ringviz " + sub->get_name() + " --help" : help);
  }
}

// The subcommands of `app` with an option named `word` ("--lesson"), as `ringviz record`.
std::vector<std::string> commands_with_option(const CLI::App& app, const std::string& word) {
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->get_option_no_throw(word) != nullptr) commands.push_back("ringviz " + sub->get_name());
  return commands;
}

}  // namespace

void refuse_empty_values(CLI::App& app, const std::string& help) { refuse_empty_values_of(app, help); }

std::string parse_error_message(const CLI::ParseError& error, const CLI::App& app, const std::string& help) {
  const std::string what = error.what();
  // CLI11: "--gpus: At Most 1 required but received 2".
  const std::string repeated = ": At Most 1 required but received ";
  if (const std::size_t at = what.find(repeated); at != std::string::npos)
    return what.substr(0, at) + ": given " + what.substr(at + repeated.size()) + " times; give it once";
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    // CLI11 lists them last first; the app keeps them as typed.
    const std::vector<std::string> extras = app.remaining(true);
    std::string typed;
    for (const std::string& word : extras) typed += (typed.empty() ? "" : " ") + word;
    std::string message = (extras.size() == 1 ? "unexpected argument: " : "unexpected arguments: ") + typed;
    for (const std::string& word : extras) {
      if (word.rfind("-", 0) != 0) continue;
      const std::vector<std::string> owners = commands_with_option(app, word.substr(0, word.find('=')));
      if (owners.empty()) continue;
      message += "; " + word.substr(0, word.find('=')) + " is an option of `" + owners.front() + "`, not of this command";
      return message;
    }
    return message + " (see " + help + ")";
  }
  return what + " (see " + help + ")";
}

}  // namespace ringviz::cli
