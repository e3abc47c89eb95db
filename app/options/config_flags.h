#pragma once
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "core/model/config.h"
#include "core/model/enum_table.h"
#include "core/topology/topology.h"

namespace ringviz::cli {

// The options every subcommand shares (docs/architecture.md, "How a round flows"), kept as the
// text the user typed so that a bad value is reported by our own parser, naming the flag and
// the allowed values.
struct ConfigFlags {
  std::string op = "allreduce";
  std::string algorithm = "ring";
  std::string order = "seed";
  std::string gpus = "4";
  std::string count = "8";
  std::string dtype = "f32";
  std::string reduce = "sum";
  std::string init = "seed";
  std::string channels = "1";
  std::string slices = "1";
  std::string root = "0";  // --root: broadcast's source GPU
  std::string splits;      // --splits: an uneven AllToAll's block sizes, "3,1/0,2"; "": even
  std::string backend = "auto";
  std::string lang = "en";
  // --topology: the machine (a preset or a topology file). "": none named; an algorithm that
  // reduces inside the switch (nvls) is then refused, and the NCCL model's predictions assume
  // nvswitch:N.
  std::string topology;
  bool verbose = false;  // --verbose: say which backend runs and why (the CPU fallback notice)
  // Whether --algo was typed: without it an op the ring lacks (alltoall) runs on the algorithm
  // that has it (default_algorithm); typed, the choice stands or is refused.
  const CLI::Option* algorithm_option = nullptr;
  // Whether --count was typed: with --splits and no --count, the count is the largest row's sum.
  const CLI::Option* count_option = nullptr;
};

// The flags that describe the collective itself, which a lesson or a recorded document brings
// its own of: `record` refuses them beside --lesson and --open.
inline constexpr const char* kCollectiveFlags[] = {"--op",     "--algo", "--order", "--gpus", "--count", "--dtype",
                                                   "--reduce", "--init", "--root",  "--splits"};

void add_config_flags(CLI::App& parser, ConfigFlags& flags);
// Throws InputError naming the flag.
Config config_from_flags(const ConfigFlags& flags);
BackendChoice backend_from_flags(const ConfigFlags& flags);
// The machine --topology names for `ranks` GPUs; nullopt when none was given. Throws InputError
// naming --topology for a bad spec or a GPU count other than --gpus.
std::optional<Topology> topology_from_flags(const ConfigFlags& flags, int ranks);
// The machine the NCCL model's predictions assume: --topology, or nvswitch:N without it.
Topology prediction_topology(const ConfigFlags& flags, int ranks);

// --verbose, for a subcommand that registers its own --backend instead of add_config_flags.
CLI::Option* add_verbose_flag(CLI::App& parser, bool& verbose);
// The backend's notice (why `auto` runs on the CPU) on stderr as "ringviz: <notice>", only
// with --verbose: a machine without an NVIDIA driver is the usual case, not a problem to report
// on every command. Call once per command, after the inputs were accepted.
void say_backend_notice(const std::string& notice, bool verbose);

// The --help text of a choice that offers only `offered` of `table`'s values, in the table's
// order: "f32 | bf16" for the element types a training run takes.
template <class E, std::size_t N, std::size_t M>
std::string choice_help(const EnumName<E> (&table)[N], const E (&offered)[M]) {
  std::string text;
  for (const EnumName<E>& entry : table) {
    bool is_offered = false;
    for (E value : offered) is_offered = is_offered || value == entry.value;
    if (!is_offered) continue;
    text += text.empty() ? "" : " | ";
    text += entry.name;
    if (!entry.help.empty()) text += " (" + std::string(entry.help) + ")";
  }
  return text;
}
// "a | b | c": the names alone, for a subcommand's one-line description.
template <class E, std::size_t N>
std::string choice_names(const EnumName<E> (&table)[N]) {
  std::string text;
  for (const EnumName<E>& entry : table) text += (text.empty() ? "" : " | ") + std::string(entry.name);
  return text;
}

// Registers `names` (e.g. "--dtype,-d") as a choice of `table`'s values read into `text`; its
// --help lists them (with what each means), after `lead` when one is given.
template <class Table>
CLI::Option* add_choice_option(CLI::App& parser, const std::string& names, std::string& text, const Table& table,
                               const std::string& lead = "") {
  const std::string choices = choice_help(table);
  return parser.add_option(names, text, lead.empty() ? choices : lead + ": " + choices)
      ->capture_default_str();
}
// --gpus,-n: `what` (e.g. "data-parallel GPUs"), 1 to `most`.
CLI::Option* add_gpus_option(CLI::App& parser, std::string& text, const std::string& what, int most);
// --backend auto|cpu|cuda, for every subcommand that runs the engine.
CLI::Option* add_backend_option(CLI::App& parser, std::string& text);
// --lang: the language of `what` ("the tables"), en | zh. Every subcommand registers it here.
CLI::Option* add_lang_option(CLI::App& parser, std::string& text, const std::string& what = "the tables");
// --root: the GPU a broadcast starts from, checked against --gpus by config_from_flags.
CLI::Option* add_root_option(CLI::App& parser, std::string& text);
// --count,-c: elements each GPU starts with.
CLI::Option* add_count_option(CLI::App& parser, std::string& text);

// What a command line that CLI11 refuses is told, in our words, for `ringviz`, every
// subcommand and `ringviz capture` alike (README, "Troubleshooting": one `ringviz: ...` line,
// exit 2).
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

// How `ringviz memory`, `train` and `compare` print: aligned for a terminal, or one JSON document.
enum class ReportFormat { table, json };
inline constexpr EnumName<ReportFormat> kReportFormatNames[] = {
    {ReportFormat::table, "table"}, {ReportFormat::json, "json"}};
// --format,-f, read with parse_enum(kReportFormatNames, text, "--format").
CLI::Option* add_report_format_option(CLI::App& parser, std::string& text);

}  // namespace ringviz::cli
