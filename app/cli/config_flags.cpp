#include "app/cli/config_flags.h"

#include <iostream>

#include "core/algorithms/registry.h"
#include "app/cli/number_flags.h"
#include "core/model/text.h"

namespace ringviz::cli {

void add_config_flags(CLI::App& parser, ConfigFlags& flags) {
  add_choice_option(parser, "--op", flags.op, kOpNames);
  add_choice_option(parser, "--algo", flags.algorithm, algorithm_name_table());
  add_choice_option(parser, "--order", flags.order, kOrderNames);
  add_gpus_option(parser, flags.gpus, "number of GPUs in the ring", kMaxRanks);
  add_count_option(parser, flags.count);
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
                      " (1: one ring, as in the article)")
      ->capture_default_str();
  parser
      .add_option("--slices", flags.slices,
                  "pieces every slot is cut into so that rounds overlap in a pipeline, 1-" +
                      std::to_string(kMaxSlices) + " (1: the article's lock-step rounds)")
      ->capture_default_str();
  add_choice_option(parser, "--backend", flags.backend, kBackendChoiceNames);
  add_choice_option(parser, "--lang", flags.lang, kLanguageNames);
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

CLI::Option* add_count_option(CLI::App& parser, std::string& text) {
  return parser.add_option("--count,-c", text, "elements each GPU starts with (K, M, G suffixes: powers of 1024)")
      ->capture_default_str();
}

CLI::Option* add_report_format_option(CLI::App& parser, std::string& text) {
  return add_choice_option(parser, "--format,-f", text, kReportFormatNames);
}

Config config_from_flags(const ConfigFlags& flags) {
  Config config;
  config.op = parse_op(flags.op, "--op");
  config.algorithm = parse_algorithm(flags.algorithm, "--algo");
  config.order = parse_order(flags.order, "--order");
  config.ranks = parse_gpu_count(flags.gpus, "--gpus");
  config.count = parse_element_count(flags.count, "--count");
  config.dtype = parse_dtype_or_throw(flags.dtype, "--dtype");
  config.reduce = parse_reduce_or_throw(flags.reduce, "--reduce");
  config.init = parse_init(flags.init, "--init");
  config.channels = static_cast<int>(parse_number_in_range(flags.channels, "--channels", 1, kMaxChannels));
  config.slices = static_cast<int>(parse_number_in_range(flags.slices, "--slices", 1, kMaxSlices));
  parse_language(flags.lang, "--lang");
  validate_or_throw(config);
  return config;
}

BackendChoice backend_from_flags(const ConfigFlags& flags) {
  return parse_backend_choice(flags.backend, "--backend");
}

}  // namespace ringviz::cli
