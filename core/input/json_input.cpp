#include "core/input/json_input.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/model/input_error.h"
#include "core/model/text.h"

namespace ringviz {

namespace {

using nlohmann::json;

// nlohmann's own DOM builder, with the nesting bounded: returning false from a start event
// stops the parse before the document grows deeper than kMaxJsonDepth.
class BoundedDomBuilder {
 public:
  explicit BoundedDomBuilder(json& result) : builder_(result, false) {}

  bool null() { return builder_.null(); }
  bool boolean(bool value) { return builder_.boolean(value); }
  bool number_integer(json::number_integer_t value) { return builder_.number_integer(value); }
  bool number_unsigned(json::number_unsigned_t value) { return builder_.number_unsigned(value); }
  bool number_float(json::number_float_t value, const std::string& text) {
    return builder_.number_float(value, text);
  }
  bool string(std::string& value) { return builder_.string(value); }
  bool binary(json::binary_t& value) { return builder_.binary(value); }
  bool start_object(std::size_t size) {
    if (!deeper()) return false;
    // One key set per open object, reused: objects are opened and closed by the million in a trace.
    if (open_objects_ == keys_.size()) keys_.emplace_back();
    keys_[open_objects_++].clear();
    return builder_.start_object(size);
  }
  bool key(std::string& value) {
    // nlohmann keeps the last of two equal keys; a file that says two things is refused.
    if (!keys_[open_objects_ - 1].insert(value).second) {
      duplicate_key_ = value;
      return false;
    }
    return builder_.key(value);
  }
  bool end_object() {
    --depth_;
    --open_objects_;
    return builder_.end_object();
  }
  bool start_array(std::size_t size) { return deeper() && builder_.start_array(size); }
  bool end_array() {
    --depth_;
    return builder_.end_array();
  }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& error) {
    error_position_ = position;
    error_id_ = error.id;
    last_token_ = last_token;
    error_text_ = error.what();
    return false;
  }

  bool too_deep() const { return too_deep_; }
  const std::optional<std::string>& duplicate_key() const { return duplicate_key_; }
  std::size_t error_position() const { return error_position_; }
  int error_id() const { return error_id_; }
  const std::string& last_token() const { return last_token_; }
  const std::string& error_text() const { return error_text_; }

 private:
  bool deeper() {
    if (++depth_ <= kMaxJsonDepth) return true;
    too_deep_ = true;
    return false;
  }

  nlohmann::detail::json_sax_dom_parser<json> builder_;
  int depth_ = 0;
  bool too_deep_ = false;
  std::vector<std::unordered_set<std::string>> keys_;
  std::size_t open_objects_ = 0;
  std::optional<std::string> duplicate_key_;
  std::size_t error_position_ = 0;
  int error_id_ = 0;
  std::string last_token_;
  std::string error_text_;
};

void skip_space(std::string_view text, std::size_t& at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r'))
    ++at;
}

void skip_string(std::string_view text, std::size_t& at) {
  for (++at; at < text.size() && text[at] != '"'; ++at)
    if (text[at] == '\\') ++at;
  ++at;
}

// Moves `at` past the value that starts there; brackets are counted, not recursed into.
void skip_value(std::string_view text, std::size_t& at) {
  if (at >= text.size()) return;
  if (text[at] == '"') return skip_string(text, at);
  if (text[at] != '[' && text[at] != '{') {  // a number, true, false or null
    while (at < text.size() && std::string_view(",]} \t\r\n").find(text[at]) == std::string_view::npos) ++at;
    return;
  }
  int depth = 0;
  do {
    const char c = text[at];
    if (c == '"') {
      skip_string(text, at);
      continue;
    }
    if (c == '[' || c == '{') ++depth;
    else if (c == ']' || c == '}') --depth;
    ++at;
  } while (depth > 0 && at < text.size());
}

// The byte offset of the first bracket nested deeper than kMaxJsonDepth.
std::size_t first_too_deep_bracket(std::string_view text) {
  int depth = 0;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '"') {
      skip_string(text, at);
      --at;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return at;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return 0;
}

// The byte offsets of the first key that repeats one of its object's earlier keys, and of that
// earlier key; one pass over a text the parser stopped in. Keys are compared as decoded strings
// ("a" and "\u0061" are the same key).
std::pair<std::size_t, std::size_t> repeated_key_offsets(std::string_view text) {
  struct Open {
    bool object = false;
    std::unordered_map<std::string, std::size_t> keys;  // decoded key -> its offset
  };
  std::vector<Open> open;
  for (std::size_t at = 0; at < text.size();) {
    const char c = text[at];
    if (c == '{' || c == '[') {
      open.push_back({c == '{', {}});
      ++at;
    } else if (c == '}' || c == ']') {
      if (!open.empty()) open.pop_back();
      ++at;
    } else if (c == '"') {
      const std::size_t start = at;
      skip_string(text, at);
      std::size_t after = at;
      skip_space(text, after);
      if (!open.empty() && open.back().object && after < text.size() && text[after] == ':') {
        const json key = json::parse(text.substr(start, at - start), nullptr, false);
        if (key.is_string()) {
          const auto [first, fresh] = open.back().keys.emplace(key.get_ref<const std::string&>(), start);
          if (!fresh) return {start, first->second};
        }
      }
    } else {
      ++at;
    }
  }
  return {0, 0};
}

std::string unescape_pointer_token(std::string_view token) {
  std::string plain;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size()) {
      plain += token[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      plain += token[i];
    }
  }
  return plain;
}

// Within the container at `at`, moves `at` to the member named `token`; false when absent.
bool enter_member(std::string_view text, std::size_t& at, const std::string& token) {
  const char open = text[at];
  if (open != '[' && open != '{') return false;
  std::size_t index = 0;
  std::size_t wanted_index = 0;
  if (open == '[') {
    if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos) return false;
    wanted_index = std::stoull(token.substr(0, 18));
  }
  std::size_t cursor = at + 1;
  for (;; ++index) {
    skip_space(text, cursor);
    if (cursor >= text.size() || text[cursor] == ']' || text[cursor] == '}') return false;
    bool found = open == '[' && index == wanted_index;
    if (open == '{') {
      const std::size_t key_start = cursor;
      skip_string(text, cursor);
      const json key = json::parse(text.substr(key_start, cursor - key_start), nullptr, false);
      found = key.is_string() && key.get_ref<const std::string&>() == token;
      skip_space(text, cursor);
      ++cursor;  // the colon
      skip_space(text, cursor);
    }
    if (found) {
      at = cursor;
      return true;
    }
    skip_value(text, cursor);
    skip_space(text, cursor);
    ++cursor;  // the comma
  }
}

std::string describe_syntax_error(const std::string& library_text) {
  // "[json.exception.parse_error.101] parse error at line 3, column 7: syntax error while
  // parsing array - unexpected '}'; expected ']'" -> "unexpected '}'; expected ']'".
  std::string detail = library_text;
  if (const std::size_t colon = detail.find(": "); colon != std::string::npos) detail = detail.substr(colon + 2);
  if (const std::size_t dash = detail.find(" - "); detail.rfind("syntax error", 0) == 0 && dash != std::string::npos)
    detail = detail.substr(dash + 3);
  return detail;
}

// Closes the descriptor however reading ends.
struct OpenFile {
  explicit OpenFile(int opened) : descriptor(opened) {}
  int descriptor;
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile() { ::close(descriptor); }
};

std::string file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

std::string position_prefix(std::string_view text, std::string_view source, std::size_t offset) {
  const auto [line, column] = text_line_column(text, offset);
  return std::string(source) + ':' + std::to_string(line) + ':' + std::to_string(column) + ": ";
}

}  // namespace

std::string read_input_text(const std::string& path, std::string_view what, std::uintmax_t max_bytes) {
  const std::string shown = std::string(what) + " " + escape_for_message(path);
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError(shown + ": is a directory; give a file");
  // O_NONBLOCK so that opening a FIFO with no writer returns at once; the type is then
  // checked on the descriptor itself, so nothing can swap the file in between.
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (descriptor < 0) throw InputError(shown + ": cannot be opened (does it exist and is it readable?)");
  const OpenFile file(descriptor);
  struct stat status {};
  if (::fstat(descriptor, &status) != 0) throw InputError(shown + ": cannot be read");
  if (!S_ISREG(status.st_mode))
    throw InputError(shown + ": is not a regular file (" + file_kind(status.st_mode) + "); give a file");
  const auto size = static_cast<std::uintmax_t>(status.st_size);
  if (size > max_bytes)
    throw InputError(shown + ": is " + std::to_string(size) + " bytes, more than the " +
                     std::to_string(max_bytes) + " bytes such a file may have");
  // Read in pieces with the bound checked as it goes: the file may grow while it is read.
  std::string text;
  std::vector<char> piece(std::size_t{1} << 16);
  for (;;) {
    const ssize_t got = ::read(descriptor, piece.data(), piece.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(shown + ": cannot be read");
    if (got == 0) break;
    text.append(piece.data(), static_cast<std::size_t>(got));
    if (text.size() > max_bytes)
      throw InputError(shown + ": is more than the " + std::to_string(max_bytes) + " bytes such a file may have");
  }
  return text;
}

nlohmann::json parse_json_input(std::string_view text, std::string_view source) {
  // nlohmann stops at a NUL as if the input ended there: what follows would be dropped
  // unseen, or the message would say "unexpected end of input".
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos)
    throw InputError(position_prefix(text, source, nul) + "a NUL byte (0x00): the file is not text");
  json document;
  BoundedDomBuilder builder(document);
  if (json::sax_parse(text.begin(), text.end(), &builder)) return document;
  if (builder.duplicate_key()) {
    const auto [repeated, first] = repeated_key_offsets(text);
    throw InputError(position_prefix(text, source, repeated) + "the key \"" +
                     shortened_for_message(*builder.duplicate_key()) + "\" appears twice in one object (first on line " +
                     std::to_string(text_line_column(text, first).first) + "); keep one");
  }
  if (builder.too_deep()) {
    throw InputError(position_prefix(text, source, first_too_deep_bracket(text)) +
                     "nested more than " + std::to_string(kMaxJsonDepth) +
                     " levels deep (arrays and objects inside each other)");
  }
  // The library's position is 1-based and points just past the offending character.
  const std::size_t offset = builder.error_position() > 0 ? builder.error_position() - 1 : 0;
  if (builder.error_id() == 406) {
    const std::size_t start = offset + 1 >= builder.last_token().size() ? offset + 1 - builder.last_token().size() : 0;
    throw InputError(position_prefix(text, source, start) + shortened_for_message(builder.last_token()) +
                     " is too large for a number (beyond ±1.8e308)");
  }
  throw InputError(position_prefix(text, source, offset) + "not valid JSON: " +
                   escape_for_message(describe_syntax_error(builder.error_text())));
}

std::string shortened_for_message(std::string_view text) {
  std::size_t end = 0;
  for (std::size_t characters = 0; end < text.size() && characters < kMaxEchoedCharacters; ++characters)
    next_code_point(text, end);
  if (end >= text.size()) return escape_for_message(text);
  return escape_for_message(text.substr(0, end)) + "…";
}

std::vector<std::vector<std::string_view>> array_row_value_texts(std::string_view text) {
  std::vector<std::vector<std::string_view>> rows;
  std::size_t at = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a UTF-8 byte order mark
  skip_space(text, at);
  if (at >= text.size() || text[at] != '[') return rows;
  for (++at;;) {
    skip_space(text, at);
    if (at >= text.size() || text[at] != '[') return rows;  // the end, or a row that is no array
    std::vector<std::string_view>& row = rows.emplace_back();
    for (++at;;) {
      skip_space(text, at);
      if (at >= text.size() || text[at] == ']') break;
      const std::size_t start = at;
      skip_value(text, at);
      row.push_back(text.substr(start, at - start));
      skip_space(text, at);
      if (at < text.size() && text[at] == ',') ++at;
    }
    ++at;  // the row's ']'
    skip_space(text, at);
    if (at < text.size() && text[at] == ',') ++at;
  }
}

std::pair<int, int> text_line_column(std::string_view text, std::size_t offset) {
  int line = 1;
  int column = 1;
  for (std::size_t at = 0; at < offset && at < text.size();) {
    if (next_code_point(text, at) == U'\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

std::size_t json_value_offset(std::string_view text, std::string_view pointer) {
  std::size_t at = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a UTF-8 byte order mark
  skip_space(text, at);
  while (!pointer.empty() && at < text.size()) {
    pointer.remove_prefix(1);  // the leading '/'
    const std::size_t slash = pointer.find('/');
    const std::string token = unescape_pointer_token(pointer.substr(0, slash));
    pointer = slash == std::string_view::npos ? std::string_view() : pointer.substr(slash);
    std::size_t member = at;
    if (!enter_member(text, member, token)) break;
    at = member;
  }
  return at;
}

std::string json_value_position(std::string_view text, std::string_view source, std::string_view pointer) {
  const std::string prefix = position_prefix(text, source, json_value_offset(text, pointer));
  return prefix.substr(0, prefix.size() - 2);
}

}  // namespace ringviz
