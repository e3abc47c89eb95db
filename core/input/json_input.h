#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

// Reading the JSON files a user hands ringviz (init files, lessons, settings): every problem
// becomes one InputError line that names the file and the line:column, in our words
// (docs/architecture.md, "Reading input files").

namespace ringviz {

// Arrays and objects nested deeper than this are refused while parsing. Real files nest a
// handful of levels; the bound keeps every later walk over the document shallow.
inline constexpr int kMaxJsonDepth = 64;

// The whole file at `path`. `what` names it in messages ("init file", "lesson file"). Refuses
// a folder, anything that is not a regular file (a FIFO, a device), a file that cannot be
// opened or read, and one larger than `max_bytes`.
std::string read_input_text(const std::string& path, std::string_view what, std::uintmax_t max_bytes);

// Parses `text`; `source` starts every message ("init file in.json"). Syntax errors, numbers
// beyond the range of a double (1e400) and nesting deeper than kMaxJsonDepth throw InputError
// "<source>:<line>:<column>: <problem>".
nlohmann::json parse_json_input(std::string_view text, std::string_view source);

// The 1-based line and column of byte `offset`; columns count characters, not bytes, so an
// author finds the spot in any editor. A character that starts before `offset` counts whole.
std::pair<int, int> text_line_column(std::string_view text, std::size_t offset);

// The byte offset of the value at JSON `pointer` ("/1/5", "/window/width") in `text`, already
// accepted by parse_json_input, or of its nearest ancestor present. Found by one pass over the
// text, without recursion, so it is cheap to call only when a message needs it.
std::size_t json_value_offset(std::string_view text, std::string_view pointer);

// "<source>:<line>:<column>" of the value at `pointer`.
std::string json_value_position(std::string_view text, std::string_view source, std::string_view pointer);

// Echoed user text as messages show it: escaped (escape_for_message) and, past
// kMaxEchoedCharacters characters, cut with "…", so a 5000-digit number stays one short line.
inline constexpr std::size_t kMaxEchoedCharacters = 40;
std::string shortened_for_message(std::string_view text);

// The text of every element of every row of a document that is an array of arrays (an init
// file), already accepted by parse_json_input: one pass, so that an element's text costs
// nothing more when a message or an exact conversion needs it.
std::vector<std::vector<std::string_view>> array_row_value_texts(std::string_view text);

}  // namespace ringviz
