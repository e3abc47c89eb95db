#include "app/gui/share/view_command.h"

#include <charconv>

#include "core/algorithms/registry.h"
#include "core/model/checked_value.h"
#include "core/input/initial_values.h"

namespace ringviz::gui {

namespace {

// The shortest fixed-point text that reads back as the same double: --round takes no exponent.
std::string round_text(double position) {
  const std::string text = shortest_fixed_text(position);
  return text.empty() ? std::to_string(position) : text;
}

std::string init_text(const InitPattern& init) {
  return init.kind == InitKind::values ? values_init_text(init.values) : init.spec();
}

void add(std::vector<std::string>& args, const char* flag, std::string value) {
  args.emplace_back(flag);
  args.push_back(std::move(value));
}

void add_collective(std::vector<std::string>& args, const Config& config) {
  const Config defaults;
  add(args, "--op", std::string(op_name(config.op)));
  if (config.algorithm != defaults.algorithm) add(args, "--algo", std::string(algorithm_name(config.algorithm)));
  if (config.order != defaults.order) add(args, "--order", std::string(order_name(config.order)));
  add(args, "--gpus", std::to_string(config.ranks));
  add(args, "--count", std::to_string(config.count));
  if (config.dtype != defaults.dtype) add(args, "--dtype", std::string(dtype_name(config.dtype)));
  if (config.reduce != defaults.reduce) add(args, "--reduce", std::string(reduce_op_name(config.reduce)));
  if (config.init.kind != defaults.init.kind) add(args, "--init", init_text(config.init));
  if (config.channels != defaults.channels) add(args, "--channels", std::to_string(config.channels));
  if (config.slices != defaults.slices) add(args, "--slices", std::to_string(config.slices));
  if (config.root != defaults.root) add(args, "--root", std::to_string(config.root));
  if (uneven_all_to_all(config)) add(args, "--splits", splits_text(config));
  // The command line runs an in-switch reduction only on a machine that names the switch.
  if (algorithm_unit(config.algorithm).reduces_in_switch)
    add(args, "--topology", "nvswitch:" + std::to_string(config.ranks));
}

}  // namespace

std::vector<std::string> view_command_args(const ViewState& state) {
  std::vector<std::string> args;
  // A replay's collective is the document's: its flags would be refused or ignored.
  if (!state.open.empty()) add(args, "--open", state.open);
  else add_collective(args, state.config);
  if (state.view != CentreView::ring) add(args, "--view", std::string(centre_view_name(state.view)));
  if (state.round != 0) add(args, "--round", round_text(state.round));
  // Always, English too: without --lang the GUI opens in the saved language, which on another
  // machine (or after a change in settings) need not be the one this view was in.
  add(args, "--lang", std::string(language_name(state.language)));
  if (state.present) args.emplace_back("--present");
  if (state.predict) args.emplace_back("--predict");
  return args;
}

std::string shell_quote(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789-_.,:/=+@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string view_command(const ViewState& state) {
  std::string command = "ringviz";
  for (const std::string& arg : view_command_args(state)) command += " " + shell_quote(arg);
  return command;
}

}  // namespace ringviz::gui
