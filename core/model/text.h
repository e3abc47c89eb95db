#pragma once
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

#include "core/model/enum_table.h"

namespace ringviz {

// The languages the command line prints in. The GUI has its own, larger translation files;
// this table only covers the words `ringviz trace` and friends put on a terminal.
enum class Language { en, zh };
inline constexpr EnumName<Language> kLanguageNames[] = {{Language::en, "en"}, {Language::zh, "zh"}};

inline constexpr EnumNamer language_name{kLanguageNames};
// Throws InputError naming `field` and the accepted values.
inline constexpr EnumParser parse_language{kLanguageNames, "lang"};

// One entry per phrase; `{}` marks where fill() puts an argument, in order.
enum class Phrase {
  title,               // {algorithm} {op} on {n} GPUs
  setup_count,         // count {c} per GPU
  setup_reduce,        // reduce {r}
  setup_order,         // order {o}
  setup_inputs,        // inputs {spec}
  setup_backend,       // backend {name}
  layout_blocks,       // AllGather: what a block is
  layout_chunks,       // ReduceScatter/AllReduce: how the buffer is cut, then {an example label}
  layout_broadcast,    // Broadcast: GPU {root} holds {count} cut into {chunks}, {size} per chunk; {label}: GPU {root}'s chunk 2
  layout_all_to_all,   // AllToAll: {N blocks} of {size} each, then {the elements left over}
  all_to_all_left_over,  // AllToAll: {count % N} elements take no part
  layout_all_to_all_uneven,  // uneven AllToAll: {N x N} blocks per buffer, {N}, the splits {table}
  label_sum,           // the example label of each reduction, in ReduceOp order
  label_prod,
  label_max,
  label_min,
  label_avg,
  label_runs,          // what a ring run such as c2..e2 means (more than four GPUs)
  empty_pieces,        // {empty} of {total} pieces hold no elements: --count {c} < {fill} ...
  empty_pieces_of_blocks,  // {empty} of {total} pieces, an uneven AllToAll's blocks under {C x S} elements
  inputs_heading,
  round_heading,       // Round {n} ({phase})
  wave_heading,        // Wave {n} ({phase}): a step of a pipelined schedule
  round_time,          // appended to the heading when the backend timed the round
  values_after_round,  // Values after round {n}:
  values_after_wave,   // Values after wave {n}:
  column_gpu,
  column_holds,
  column_values,
  column_sends,
  column_receives,
  column_holds_after_round,
  column_holds_after_wave,
  column_fully_reduced,
  column_bytes_sent,
  column_bytes_received,
  gpu_name,            // GPU {r}
  chunk_name,          // chunk {i}
  owned_chunk,         // {label} (chunk {i})
  changed_chunk,       // chunk {i} = {label}
  reduce_scatter_result_heading,
  after_reduce_scatter_phase_heading,
  outputs_heading,
  value_count,         // ({n} values)
  block_count,         // ({n} blocks)
  either,              // {a} or {b}
  traffic_heading,
  formula_uneven,      // why the exact totals differ from the formula
  elements_many,       // {n} elements; the *_one forms follow their plural, for a count of 1
  elements_one,
  chunks_many,
  chunks_one,
  gpus_many,
  gpus_one,
  blocks_many,
  blocks_one,
};

// What count_of() counts, worded by the phrases elements_many … blocks_one.
enum class Noun { elements, chunks, gpus, blocks };

std::string_view phrase(Phrase key, Language language);

// Replaces each `{}` in `pattern` with the next argument (missing arguments leave it empty).
std::string fill(std::string_view pattern, std::initializer_list<std::string_view> arguments);
inline std::string say(Phrase key, Language language,
                       std::initializer_list<std::string_view> arguments = {}) {
  return fill(phrase(key, language), arguments);
}

// "{number} elements", or "1 element" when `number` is "1" (it may be "4 or 3"); Chinese has
// one form for both.
std::string count_of(Noun noun, std::string_view number, Language language);

// What a malformed or cut-off UTF-8 sequence decodes as.
inline constexpr char32_t kReplacementCharacter = 0xFFFD;
// Decodes the UTF-8 code point that starts at byte `at` and moves `at` past it. A malformed or
// cut-off sequence decodes as kReplacementCharacter and moves one byte, so every byte is read.
char32_t next_code_point(std::string_view utf8, std::size_t& at);
// `point` encoded as UTF-8 at the end of `out`.
void append_utf8(std::string& out, char32_t point);

// `text` (a flag value, a file name, a string from a user's file) made safe to print inside a
// one-line message: control characters show as escapes (\n, \t, \r, \x1b, \u0085) and bytes
// that are not valid UTF-8 as \xNN, so what a user typed can neither break the line, drive
// the terminal, nor hide; printable text, Chinese included, is kept as it is.
std::string escape_for_message(std::string_view text);

// Terminal columns a UTF-8 string occupies: East Asian wide and full-width characters count
// two, everything else one (combining marks are rare in our output and count one too).
std::size_t display_width(std::string_view utf8);

// A byte size for a message, in the decimal unit that keeps it below 1000 with three significant
// digits: "512 MB", "7.7 TB", "1.23 GB", "0 B"; never an exponent however large.
std::string format_size_for_message(double bytes);

}  // namespace ringviz
