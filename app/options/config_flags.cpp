#include "app/options/config_flags.h"

#include <algorithm>
#include <iostream>
#include <vector>

#include "app/options/number_flags.h"
#include "core/algorithms/registry.h"
#include "core/model/input_error.h"
#include "core/model/text.h"
#include "core/nccl/nccl_machine.h"

namespace ringviz::cli {

void add_config_flags(CLI::App& parser, ConfigFlags& flags) {
  add_choice_option(parser, "--op", flags.op, kOpNames);
  flags.algorithm_option = add_choice_option(parser, "--algo", flags.algorithm, algorithm_name_table());
  add_choice_option(parser, "--order", flags.order, kOrderNames);
  add_gpus_option(parser, flags.gpus, "number of GPUs in the ring", kMaxRanks);
  flags.count_option = add_count_option(parser, flags.count);
  add_choice_option(parser, "--dtype,-d", flags.dtype, kDTypeNames);
  add_choice_option(parser, "--reduce,-o", flags.reduce, kReduceOpNames);
  add_choice_option(parser, "--init", flags.init, kTypedInitNames)
      ->description(choice_help(kTypedInitNames) +
                    " | values:A,B/C,D (a value table, one row of --count numbers per GPU, as the GUI's Copy "
                    "command writes it)");
  // (docs/architecture.md, "Pipelined schedules")
  parser
      .add_option("--channels", flags.channels,
                  "parallel rings, each carrying its own part of every slot, 1-" + std::to_string(kMaxChannels) +
                      " (1: one ring, as in the source article)")
      ->capture_default_str();
  parser
      .add_option("--slices", flags.slices,
                  "pieces every slot is cut into so that rounds overlap in a pipeline, 1-" +
                      std::to_string(kMaxSlices) + " (1: the source article's lock-step rounds)")
      ->capture_default_str();
  add_root_option(parser, flags.root);
  parser.add_option("--splits", flags.splits,
                    "an AllToAll's uneven block sizes, one row per GPU: row s lists what GPU s sends to GPU 0, 1, ... "
                    "(3,1/0,2 on 2 GPUs; PyTorch's input split sizes). --count defaults to the largest row's sum");
  add_backend_option(parser, flags.backend);
  add_lang_option(parser, flags.lang, "the tables and messages");
  parser.add_option("--topology", flags.topology,
                    "the machine: " + topology_preset_forms() +
                        " or a topology file; --algo nvls needs one with an NVSwitch, "
                        "and the NCCL model's predictions assume it (default for those: nvswitch:N)");
  add_verbose_flag(parser, flags.verbose);
}

CLI::Option* add_verbose_flag(CLI::App& parser, bool& verbose) {
  return parser.add_flag("--verbose", verbose,
                         "say on stderr which backend runs when it is not the one asked for (e.g. the CPU "
                         "because no CUDA device is usable)");
}

void say_backend_notice(const std::string& notice, bool verbose) {
  if (verbose && !notice.empty()) std::cerr << "ringviz: " << notice << "\n";
}

CLI::Option* add_gpus_option(CLI::App& parser, std::string& text, const std::string& what, int most) {
  return parser.add_option("--gpus,-n", text, what + ", 1-" + std::to_string(most))->capture_default_str();
}

CLI::Option* add_backend_option(CLI::App& parser, std::string& text) {
  return add_choice_option(parser, "--backend", text, kBackendChoiceNames);
}

CLI::Option* add_lang_option(CLI::App& parser, std::string& text, const std::string& what) {
  return add_choice_option(parser, "--lang", text, kLanguageNames, "language of " + what);
}

CLI::Option* add_root_option(CLI::App& parser, std::string& text) {
  return parser
      .add_option("--root", text,
                  "the GPU a broadcast starts from, 0 to --gpus minus 1 (NCCL's chain runs root, root+1, ... round "
                  "the ring); only --op broadcast has one")
      ->capture_default_str();
}

CLI::Option* add_count_option(CLI::App& parser, std::string& text) {
  return parser.add_option("--count,-c", text, "elements each GPU starts with (K, M, G suffixes: powers of 1024)")
      ->capture_default_str();
}

CLI::Option* add_report_format_option(CLI::App& parser, std::string& text) {
  return add_choice_option(parser, "--format,-f", text, kReportFormatNames);
}

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

namespace {

// An algorithm that reduces inside the switch (nvls) runs only on a machine that has one.
void require_reducing_switch(const Config& config, const std::optional<Topology>& topology) {
  if (!algorithm_unit(config.algorithm).reduces_in_switch) return;
  const std::string algo = "--algo " + std::string(algorithm_name(config.algorithm));
  const std::string fix = "--topology nvswitch:" + std::to_string(config.ranks);
  if (!topology)
    throw InputError(algo + ": the NVSwitch does the reduction (NVLink SHARP), and no --topology names a machine "
                     "with one; add " + fix);
  if (!nccl_machine(*topology).nvls)
    throw InputError(algo + ": the topology '" + topology->key + "' (" + topology->label +
                     ") has no NVSwitch that reduces (every GPU of one machine on an NVSwitch of NVLink 4); give " +
                     fix + " or choose another --algo");
}

}  // namespace

Config config_from_flags(const ConfigFlags& flags) {
  Config config;
  config.op = parse_op(flags.op, "--op");
  // A command without --algo (compare runs every algorithm) chose one only if its code set one.
  const bool algorithm_typed = flags.algorithm_option != nullptr ? flags.algorithm_option->count() > 0
                                                                 : flags.algorithm != ConfigFlags{}.algorithm;
  config.algorithm = algorithm_typed ? parse_algorithm(flags.algorithm, "--algo") : default_algorithm(config.op);
  config.order = parse_order(flags.order, "--order");
  config.ranks = parse_gpu_count(flags.gpus, "--gpus");
  config.count = parse_element_count(flags.count, "--count");
  config.dtype = parse_dtype_or_throw(flags.dtype, "--dtype");
  config.reduce = parse_reduce_or_throw(flags.reduce, "--reduce");
  config.init = parse_init(flags.init, "--init");
  check_init_values(config.init, config.dtype, "--init");
  config.channels = static_cast<int>(parse_number_in_range(flags.channels, "--channels", 1, kMaxChannels));
  config.slices = static_cast<int>(parse_number_in_range(flags.slices, "--slices", 1, kMaxSlices));
  config.root = parse_root_gpu(flags.root, "--root", config.ranks);
  if (!flags.splits.empty()) {
    config.splits = parse_splits(flags.splits, config.ranks, "--splits");
    const bool count_typed = flags.count_option != nullptr && flags.count_option->count() > 0;
    if (!count_typed) config.count = largest_split_row(config);
  }
  parse_language(flags.lang, "--lang");
  validate_or_throw(config);
  require_reducing_switch(config, topology_from_flags(flags, config.ranks));
  return config;
}

std::optional<Topology> topology_from_flags(const ConfigFlags& flags, int ranks) {
  if (flags.topology.empty()) return std::nullopt;
  Topology topology = topology_from_spec(flags.topology, "--topology");
  if (topology.gpus != ranks)
    throw InputError("--topology: '" + flags.topology + "' has " + std::to_string(topology.gpus) +
                     " GPUs but --gpus is " + std::to_string(ranks) + "; give the same number to both");
  return topology;
}

Topology prediction_topology(const ConfigFlags& flags, int ranks) {
  if (std::optional<Topology> given = topology_from_flags(flags, ranks)) return *given;
  return topology_preset("nvswitch:" + std::to_string(ranks), "--topology");
}

BackendChoice backend_from_flags(const ConfigFlags& flags) {
  return parse_backend_choice(flags.backend, "--backend");
}

}  // namespace ringviz::cli
