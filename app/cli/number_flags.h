#pragma once
// Numbers typed on the command line. Every subcommand (and the GUI's options) reads them here,
// so a bad value gets the same message wherever it was typed, naming the flag.
#include <cstdint>
#include <string>

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
// Elements per GPU: a whole number with K, M, G suffixes, at most kMaxCount.
std::int64_t parse_element_count(const std::string& text, const std::string& flag);
// A UI scale as read from --ui-scale: 0 means "work it out from the screen", anything else
// must be from 0.5 to 4. Returns it unchanged; throws InputError otherwise.
float parse_ui_scale(float scale, const std::string& flag = "--ui-scale");

}  // namespace ringviz::cli
