#pragma once
// Numbers typed on the command line. Every subcommand (and the GUI's options) reads them here,
// so a bad value gets the same message wherever it was typed, naming the flag.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/model/config.h"

namespace ringviz::cli {

// Parses a whole number for `flag`; accepts K, M, G suffixes (powers of 1024) when
// `allow_suffix`. Throws InputError("--count: 'abc' is not a whole number ...").
std::int64_t parse_whole_number(const std::string& text, const std::string& flag,
                                bool allow_suffix = false);
// A whole number from `low` to `high`; throws InputError("--steps: 0 is out of range (1 to
// 100000)"), with `unit` after the range when given ("1 to 65536 examples per GPU").
std::int64_t parse_number_in_range(const std::string& text, const std::string& flag,
                                   std::int64_t low, std::int64_t high, const std::string& unit = "");
// How many GPUs: 1 to `most` (a ring the engine runs has at most kMaxRanks).
int parse_gpu_count(const std::string& text, const std::string& flag, int most = kMaxRanks);
// A broadcast's source GPU: 0 to `ranks` - 1. Throws InputError naming both numbers ("--root: 5
// is not a GPU of a ring of 5 (--gpus); give 0 to 4").
int parse_root_gpu(const std::string& text, const std::string& flag, int ranks);
// An uneven AllToAll's block sizes (Config::splits) from "3,1/0,2": rows by '/', one per GPU,
// each `ranks` whole numbers by ',', 0 to kMaxCount. Throws InputError naming the flag, the row
// and the block ("--splits: row 2 has 3 blocks; give 2, one per GPU").
std::vector<std::int64_t> parse_splits(const std::string& text, int ranks, const std::string& flag);
// Elements per GPU: a whole number with K, M, G suffixes, at most kMaxCount.
std::int64_t parse_element_count(const std::string& text, const std::string& flag);
// A UI scale as read from --ui-scale: 0 means "work it out from the screen", anything else
// must be from 0.5 to 4. Returns it unchanged; throws InputError otherwise.
float parse_ui_scale(float scale, const std::string& flag = "--ui-scale");
float parse_ui_scale_text(const std::string& text, const std::string& flag = "--ui-scale");

// A real number from `low` to `high`. Refuses empty text, NaN, the infinities, trailing
// characters ("4x") and values out of range, naming the flag, the value and `accepted` (the
// range as the help words it, e.g. "1.5 to 3").
double parse_real_in_range(const std::string& text, const std::string& flag, double low, double high,
                           const std::string& accepted);

// Whether `text` is a plain decimal as a flag takes it: digits, sign, point and exponent only, so
// no spaces, hex ("0x10"), "nan" or "inf" (which strtod alone would take).
bool is_plain_decimal(const std::string& text);

// Binds a value flag whose text `parse` checks while the command line is parsed, so that a
// bad value is refused in our words (InputError, exit 2) and never silently converted; CLI11's
// own conversion would accept "nan" or an empty string.
template <class T>
CLI::Option* add_checked_option(CLI::App& app, const std::string& names, T& target,
                                std::function<T(const std::string&)> parse, const std::string& help,
                                const std::string& type_name) {
  return app
      .add_option_function<std::string>(
          names, [&target, parse = std::move(parse)](const std::string& text) { target = parse(text); }, help)
      ->type_name(type_name);
}

// The flag's long name as messages print it: "--iters" for "-i,--iters".
std::string long_flag_name(const std::string& names);

}  // namespace ringviz::cli
