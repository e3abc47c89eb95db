// Reading lesson files: JSON -> Lesson, with every problem reported as
// "<source>:<line>:<column>: <JSON pointer>: <field>: <problem>".
//
// nlohmann-json 3.11 does not remember where a value came from, so a small second scanner over
// the (already validated) text records the byte offset of every value by its JSON pointer.
// Duplicate keys never reach it: parse_json_input refuses them for every JSON file.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/input/json_input.h"
#include "core/input/initial_values.h"
#include "core/model/checked_value.h"
#include "core/model/layout.h"
#include "core/model/text.h"
#include "core/teaching/lesson.h"
#include "core/algorithms/registry.h"
#include "core/job/job_document.h"
#include "core/run/run_collectives.h"
#include "core/trace/trace_read.h"

namespace ringviz {

namespace {

using nlohmann::json;

// Buffers a lesson may ask for: lessons are for watching, and the player keeps a snapshot per
// round, so anything bigger is a typo in `count` rather than a wish.
constexpr std::uint64_t kMaxLessonWorkingSet = std::uint64_t{64} << 20;
constexpr double kMaxSecondsPerUnit = 60.0;
constexpr double kMaxPause = 600.0;
constexpr double kMaxZoom = 8.0;
// The player runs a scene's training live; a few hundred steps already make the point.
constexpr int kMaxLessonTrainingIterations = 2000;

std::size_t character_count(std::string_view utf8) {
  std::size_t characters = 0;
  for (std::size_t at = 0; at < utf8.size(); ++characters) next_code_point(utf8, at);
  return characters;
}

std::string escape_pointer_token(std::string_view token) {
  std::string escaped;
  for (char c : token) {
    if (c == '~') escaped += "~0";
    else if (c == '/') escaped += "~1";
    else escaped += c;
  }
  return escaped;
}

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// Byte offset of the first character of every value, keyed by JSON pointer. Runs only on text
// that nlohmann has already accepted, so it does not re-check the grammar.
class PositionIndex {
 public:
  explicit PositionIndex(std::string_view text) : text_(text) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte order mark
    skip_space();
    value("");
  }

  // The offset of `pointer`, or of its nearest ancestor that exists in the text.
  std::size_t offset(std::string pointer) const {
    for (;;) {
      if (auto found = offsets_.find(pointer); found != offsets_.end()) return found->second;
      const std::size_t slash = pointer.rfind('/');
      if (slash == std::string::npos) return 0;
      pointer.resize(slash);
    }
  }

  // The text of the number at `pointer` as written (1e23, not its double 9.999999999999999e+22).
  std::string_view number_text(const std::string& pointer) const {
    const std::size_t start = offset(pointer);
    const std::size_t end = text_.find_first_of(",]} \t\r\n", start);
    return text_.substr(start, end == std::string_view::npos ? end : end - start);
  }

  // The offset of the key that names member `pointer` (for errors about the field itself).
  std::size_t key_offset(const std::string& pointer) const {
    const auto found = key_offsets_.find(pointer);
    return found != key_offsets_.end() ? found->second : offset(pointer);
  }

  // 1-based line and column (columns count characters, not bytes).
  std::pair<int, int> line_column(std::size_t offset) const {
    return text_line_column(text_, offset);
  }


 private:
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  std::string string_token() {
    std::string decoded;
    ++pos_;  // opening quote
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] != '\\') {
        decoded += text_[pos_++];
        continue;
      }
      const char escape = text_[pos_ + 1];
      pos_ += 2;
      switch (escape) {
        case 'b': decoded += '\b'; break;
        case 'f': decoded += '\f'; break;
        case 'n': decoded += '\n'; break;
        case 'r': decoded += '\r'; break;
        case 't': decoded += '\t'; break;
        case 'u': {
          std::uint32_t code = hex4();
          if (code >= 0xD800 && code < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            code = 0x10000 + ((code - 0xD800) << 10) + (hex4() - 0xDC00);
          }
          append_utf8(decoded, code);
          break;
        }
        default: decoded += escape;  // \" \\ \/
      }
    }
    ++pos_;  // closing quote
    return decoded;
  }

  std::uint32_t hex4() {
    std::uint32_t code = 0;
    for (int i = 0; i < 4 && pos_ < text_.size(); ++i, ++pos_) {
      const char c = text_[pos_];
      code = code * 16 + static_cast<std::uint32_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return code;
  }

  void value(const std::string& pointer) {
    offsets_[pointer] = pos_;
    if (pos_ >= text_.size()) return;
    const char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      skip_space();
      while (pos_ < text_.size() && text_[pos_] != '}') {
        const std::size_t key_start = pos_;
        const std::string key = string_token();
        skip_space();
        ++pos_;  // ':'
        skip_space();
        const std::string child = pointer + "/" + escape_pointer_token(key);
        key_offsets_[child] = key_start;
        value(child);
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
        skip_space();
      }
      ++pos_;
    } else if (c == '[') {
      ++pos_;
      skip_space();
      for (int index = 0; pos_ < text_.size() && text_[pos_] != ']'; ++index) {
        value(pointer + "/" + std::to_string(index));
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
        skip_space();
      }
      ++pos_;
    } else if (c == '"') {
      string_token();
    } else {  // number, true, false, null
      while (pos_ < text_.size() && std::string_view(",]} \t\r\n").find(text_[pos_]) ==
                                        std::string_view::npos)
        ++pos_;
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::map<std::string, std::size_t> offsets_;
  std::map<std::string, std::size_t> key_offsets_;
};

std::string_view json_type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number";
    default: return "something else";
  }
}

// Walks the parsed document, turning every problem into one line that points into the file.
class LessonReader {
 public:
  LessonReader(std::string_view text, std::string_view source)
      : source_(escape_for_message(source)), folder_(std::filesystem::path(source).parent_path()),
        positions_(text) {}

  const PositionIndex& positions() const { return positions_; }
  // The lesson file's folder: a scene's "open" is found from its parent.
  const std::filesystem::path& source_folder() const { return folder_; }

  [[noreturn]] void fail(const std::string& pointer, std::string_view field,
                         std::string_view problem) const {
    fail_at(positions_.offset(pointer), pointer, field, problem);
  }
  // For problems with the field's name rather than its value (unknown, given twice).
  [[noreturn]] void fail_at_key(const std::string& pointer, std::string_view field,
                                std::string_view problem) const {
    fail_at(positions_.key_offset(pointer), pointer, field, problem);
  }
  [[noreturn]] void fail_at(std::size_t offset, const std::string& pointer, std::string_view field,
                            std::string_view problem) const {
    const auto [line, column] = positions_.line_column(offset);
    std::ostringstream message;
    message << source_ << ':' << line << ':' << column << ": " << (pointer.empty() ? "/" : pointer)
            << ": " << field << ": " << problem;
    // Keys, names and captions come from the file: shown escaped, never raw.
    throw InputError(escape_for_message(message.str()));
  }

  // An object whose keys must all be in `allowed`.
  void expect_object(const json& value, const std::string& pointer, std::string_view field,
                     std::initializer_list<std::string_view> allowed) const {
    if (!value.is_object())
      fail(pointer, field, "expected an object, got " + std::string(json_type_name(value)));
    for (const auto& [key, member] : value.items())
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail_at_key(pointer + "/" + escape_pointer_token(key), key,
                    "unknown field (expected " + join_commas(allowed) + ")");
  }

  const json& require(const json& object, const std::string& pointer, std::string_view key,
                      std::string_view what) const {
    const auto member = object.find(std::string(key));
    if (member == object.end()) fail(pointer, key, "missing (" + std::string(what) + ")");
    return *member;
  }

  std::string string_value(const json& value, const std::string& pointer,
                           std::string_view field) const {
    if (!value.is_string())
      fail(pointer, field, "expected a string, got " + std::string(json_type_name(value)));
    return value.get<std::string>();
  }

  bool boolean(const json& value, const std::string& pointer, std::string_view field) const {
    if (!value.is_boolean()) fail(pointer, field, "expected true or false, got " + std::string(json_type_name(value)));
    return value.get<bool>();
  }

  long long integer(const json& value, const std::string& pointer, std::string_view field,
                    long long low, long long high) const {
    // 1e20 or 10^20 written out is whole, only beyond 64 bits: say so, not "not an integer".
    const double real = value.is_number_float() ? value.get<double>() : 0;
    const bool whole_float = value.is_number_float() && std::floor(real) == real;
    if (whole_float && (real < static_cast<double>(low) || real > static_cast<double>(high))) fail(pointer, field, out_of_range(number_text(pointer, value), low, high));
    if (!value.is_number_integer())
      fail(pointer, field, "expected an integer, got " + std::string(json_type_name(value)));
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(high))
      fail(pointer, field, out_of_range(number_text(pointer, value), low, high));
    const long long number = value.get<long long>();
    if (number < low || number > high) fail(pointer, field, out_of_range(number_text(pointer, value), low, high));
    return number;
  }

  double number(const json& value, const std::string& pointer, std::string_view field,
                double low, double high, bool low_inclusive = true) const {
    if (!value.is_number())
      fail(pointer, field, "expected a number, got " + std::string(json_type_name(value)));
    const double number = value.get<double>();
    if (!(low_inclusive ? number >= low : number > low) || !(number <= high)) {
      std::ostringstream range;
      range << value.dump() << " is out of range (" << (low_inclusive ? "" : "more than ") << low
            << " to " << high << ")";
      fail(pointer, field, range.str());
    }
    return number;
  }

  LocalizedText localized(const json& value, const std::string& pointer,
                          std::string_view field) const {
    expect_object(value, pointer, field, {"en", "zh"});
    LocalizedText text;
    for (auto [key, target] : {std::pair{"en", &text.en}, std::pair{"zh", &text.zh}}) {
      const json& member = require(value, pointer, key, "every text needs both en and zh");
      const std::string child = pointer + "/" + key;
      *target = string_value(member, child, key);
      if (target->find_first_not_of(" \t\r\n") == std::string::npos)
        fail(child, key, "is empty");
      if (const std::size_t characters = character_count(*target); characters > kMaxLessonTextCharacters)
        fail(child, key,
             std::to_string(characters) + " characters, more than the " +
                 std::to_string(kMaxLessonTextCharacters) + " a lesson text may have");
    }
    return text;
  }

  template <class Parse>
  auto parse_with(const std::string& pointer, std::string_view field, Parse parse) const {
    try {
      return parse();
    } catch (const InputError& error) {
      const std::string what = error.what();
      // Core parsers already start with "<field>: "; do not say the field twice.
      const std::string prefix = std::string(field) + ": ";
      fail(pointer, field, what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what);
    }
  }

  // An array of at most `limit` entries (the limits keep a lesson's memory and load time small).
  void check_length(const json& array, const std::string& pointer, std::string_view field,
                    std::size_t limit, std::string_view entries) const {
    if (array.is_array() && array.size() > limit)
      fail(pointer, field,
           std::to_string(array.size()) + " " + std::string(entries) + ", more than the " +
               std::to_string(limit) + " a lesson may have here");
  }

  static std::string out_of_range(const std::string& value, long long low, long long high) {
    return value + " is out of range (" + std::to_string(low) + " to " + std::to_string(high) +
           ")";
  }

 private:
  // A number as the file spells it, shortened: a 5000-digit count stays a short line.
  std::string number_text(const std::string& pointer, const json& value) const {
    const std::string_view written = positions_.number_text(pointer);
    return shortened_for_message(written.empty() ? std::string_view(value.dump()) : written);
  }

  std::string source_;
  std::filesystem::path folder_;
  PositionIndex positions_;
};

// ---- scene parts ---------------------------------------------------------------------------

// The typed inputs a lesson may use: every one but file:PATH (a lesson carries its values).
std::string lesson_init_names() {
  std::vector<std::string_view> names;
  for (const EnumName<InitKind>& entry : kTypedInitNames)
    if (entry.value != InitKind::file) names.push_back(entry.name);
  return join_commas(names);
}

Config read_config(const LessonReader& reader, const json& value, const std::string& pointer) {
  reader.expect_object(value, pointer, "config",
                       {"op", "algo", "order", "gpus", "count", "dtype", "reduce", "init", "channels", "slices"});
  Config config;
  auto text_of = [&](std::string_view key) -> std::optional<std::string> {
    const auto member = value.find(std::string(key));
    if (member == value.end()) return std::nullopt;
    return reader.string_value(*member, pointer + "/" + std::string(key), key);
  };
  auto at = [&](std::string_view key) { return pointer + "/" + std::string(key); };

  if (auto text = text_of("op"))
    config.op = reader.parse_with(at("op"), "op", [&] { return parse_op(*text, "op"); });
  if (auto text = text_of("algo"))
    config.algorithm =
        reader.parse_with(at("algo"), "algo", [&] { return parse_algorithm(*text, "algo"); });
  if (auto text = text_of("order"))
    config.order = reader.parse_with(at("order"), "order", [&] { return parse_order(*text, "order"); });
  if (auto text = text_of("dtype"))
    config.dtype =
        reader.parse_with(at("dtype"), "dtype", [&] { return parse_dtype_or_throw(*text, "dtype"); });
  if (auto text = text_of("reduce"))
    config.reduce = reader.parse_with(at("reduce"), "reduce",
                                      [&] { return parse_reduce_or_throw(*text, "reduce"); });
  if (value.contains("gpus"))
    config.ranks = static_cast<int>(reader.integer(value["gpus"], at("gpus"), "gpus", 1, kMaxRanks));
  if (value.contains("count"))
    config.count = reader.integer(value["count"], at("count"), "count", 0, kMaxCount);
  if (value.contains("channels"))
    config.channels =
        static_cast<int>(reader.integer(value["channels"], at("channels"), "channels", 1, kMaxChannels));
  if (value.contains("slices"))
    config.slices = static_cast<int>(reader.integer(value["slices"], at("slices"), "slices", 1, kMaxSlices));
  // A broadcast's source; checked against the scene's GPUs with the rest of the collective.
  if (value.contains("root"))
    config.root = static_cast<int>(reader.integer(value["root"], at("root"), "root", 0, kMaxRanks - 1));

  if (value.contains("init")) {
    const json& init = value["init"];
    reader.check_length(init, at("init"), "init", kMaxRanks, "rows");
    if (init.is_string()) {
      const std::string text = init.get<std::string>();
      config.init = reader.parse_with(at("init"), "init", [&] { return parse_init(text, "init"); });
      if (config.init.kind == InitKind::file)
        reader.fail(at("init"), "init",
                    "file: inputs are not allowed in a lesson; give the values inline as one "
                    "array per GPU");
    } else if (init.is_array()) {
      config.init.kind = InitKind::values;
      for (std::size_t r = 0; r < init.size(); ++r) {
        const std::string row_pointer = at("init") + "/" + std::to_string(r);
        if (!init[r].is_array())
          reader.fail(row_pointer, "init",
                      "expected an array of numbers, got " + std::string(json_type_name(init[r])));
        std::vector<ElementValue> row;
        for (std::size_t i = 0; i < init[r].size(); ++i) {
          const json& element = init[r][i];
          const std::string element_pointer = row_pointer + "/" + std::to_string(i);
          if (!element.is_number())
            reader.fail(element_pointer, "init",
                        "expected a number, got " + std::string(json_type_name(element)));
          // The same conversion as an init file's and --init values:' (docs/architecture.md,
          // "Reading input files"), kept exact: an i64 lesson value beyond 2^53 stays itself.
          const std::string_view written = reader.positions().number_text(element_pointer);
          const ElementValue number = read_written_number(written).value;
          if (!stored_as(number, config.dtype)) reader.fail(element_pointer, "init", does_not_fit(written, config.dtype));
          row.push_back(number);
        }
        config.init.values.push_back(std::move(row));
      }
    } else {
      reader.fail(at("init"), "init",
                  "expected a string (" + lesson_init_names() + ") or an array of arrays, got " +
                      std::string(json_type_name(init)));
    }
  }

  if (!algorithm_supports(config.algorithm, config.op))
    reader.fail(value.contains("algo") ? at("algo") : pointer, "algo",
                std::string(algorithm_name(config.algorithm)) + " has no " +
                    std::string(op_name(config.op)) + " schedule");
  if (auto problem = validate(config)) {
    // validate() names the field first ("gpus: ..."); point at that field when it is written.
    const std::string field = problem->substr(0, problem->find(':'));
    const std::string key = field == "gpus" || field == "count" || field == "init" ? field : "";
    const std::string detail = problem->size() > field.size() + 2 && problem->find(": ") == field.size()
                                   ? problem->substr(field.size() + 2)
                                   : *problem;
    reader.fail(!key.empty() && value.contains(key) ? at(key) : pointer,
                key.empty() ? "config" : key, detail);
  }
  if (working_set_bytes(config) > kMaxLessonWorkingSet)
    reader.fail(value.contains("count") ? at("count") : pointer, "count",
                "the buffers of " + std::to_string(config.count) + " elements on " +
                    std::to_string(config.ranks) +
                    " GPUs exceed the 64 MiB a lesson may use; lessons show small buffers");
  return config;
}

// A non-empty list of distinct names, each turned into a value by `parse` (a core parser that
// throws InputError naming the field and the accepted values).
template <class Parse>
auto read_name_list(const LessonReader& reader, const json& value, const std::string& pointer,
                    std::string_view field, Parse parse) {
  using Value = decltype(parse(std::string_view{}, field));
  if (!value.is_array() || value.empty())
    reader.fail(pointer, field,
                "expected a non-empty array of names, got " +
                    std::string(value.is_array() ? "an empty array" : json_type_name(value)));
  std::vector<Value> values;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string element_pointer = pointer + "/" + std::to_string(i);
    const std::string name = reader.string_value(value[i], element_pointer, field);
    const Value parsed = reader.parse_with(element_pointer, field, [&] { return parse(name, field); });
    if (std::find(values.begin(), values.end(), parsed) != values.end())
      reader.fail(element_pointer, field, "'" + name + "' is listed twice");
    values.push_back(parsed);
  }
  return values;
}

std::vector<View> read_views(const LessonReader& reader, const json& value,
                             const std::string& pointer) {
  const std::string all_names = join_commas(enum_names(kViewNames));
  if (!value.is_array() || value.empty())
    reader.fail(pointer, "views", "expected a non-empty array of view names (" + all_names + ")");
  std::vector<View> views;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string element_pointer = pointer + "/" + std::to_string(i);
    const std::string name = reader.string_value(value[i], element_pointer, "views");
    const std::optional<View> view = parse_view(name);
    if (!view)
      reader.fail(element_pointer, "views",
                  "unknown view '" + name + "' (expected " + all_names + ")");
    if (std::find(views.begin(), views.end(), *view) != views.end())
      reader.fail(element_pointer, "views", "'" + name + "' is listed twice");
    views.push_back(*view);
  }
  return views;
}

// A memory block that names a transformer: its whole iteration (docs/lessons.md, "Memory").
LessonMemory read_iteration_memory(const LessonReader& reader, const json& value, const std::string& pointer,
                                   const Config& config) {
  auto at = [&](std::string_view key) { return pointer + "/" + std::string(key); };
  auto text = [&](std::string_view key) {
    return reader.string_value(value[std::string(key)], at(key), key);
  };
  LessonMemory memory;
  IterationQuery query;
  const std::string model = text("model");
  const bool custom = model == kCustomModelName;
  if (custom) {
    TransformerShape shape;
    auto size = [&](std::string_view key, long long high) -> std::int64_t {
      return reader.integer(reader.require(value, pointer, key, "a custom model needs its shape"), at(key), key, 1,
                            high);
    };
    shape.layers = size("layers", 10'000);
    shape.hidden = size("hidden", 1 << 20);
    shape.heads = size("heads", 1 << 16);
    shape.vocab = size("vocab", 1 << 24);
    const json& params = reader.require(value, pointer, "params", "a custom model needs its parameter count");
    shape.parameters = params.is_string() ? reader.parse_with(at("params"), "params", [&] {
      return parse_parameter_count(params.get<std::string>(), "params");
    })
                                          : reader.integer(params, at("params"), "params", 1, kMaxModelParameters);
    query.model = shape;
  } else {
    query.model = reader.parse_with(at("model"), "model", [&] { return find_transformer_preset(model, "model"); });
    for (const char* key : {"params", "layers", "hidden", "heads", "vocab"})
      if (value.contains(key))
        reader.fail(at(key), key, "given with the preset '" + model + "', which carries its own shape");
  }
  memory.params = query.model.parameters;
  memory.strategies = read_name_list(
      reader, reader.require(value, pointer, "strategies", "the strategy of the iteration"), at("strategies"),
      "strategies", [](std::string_view name, std::string_view field) { return parse_strategy(name, field); });
  if (memory.strategies.size() != 1)
    reader.fail(at("strategies"), "strategies", "a whole iteration is shown under one strategy; list exactly one");
  query.strategy = memory.strategies.front();
  if (value.contains("convention"))
    memory.convention = reader.parse_with(at("convention"), "convention", [&] {
      return parse_convention(text("convention"), "convention");
    });
  query.convention = memory.convention;
  if (value.contains("seq")) query.seq = reader.integer(value["seq"], at("seq"), "seq", 1, 1 << 24);
  if (value.contains("micro_batch"))
    query.micro_batch = reader.integer(value["micro_batch"], at("micro_batch"), "micro_batch", 1, 1 << 16);
  if (value.contains("recompute"))
    query.recompute = reader.parse_with(at("recompute"), "recompute",
                                        [&] { return parse_recompute(text("recompute"), "recompute"); });
  if (value.contains("offload"))
    query.offload =
        reader.parse_with(at("offload"), "offload", [&] { return parse_offload(text("offload"), "offload"); });
  if (value.contains("gpu_memory_gb"))
    query.gpu_memory_bytes = reader.number(value["gpu_memory_gb"], at("gpu_memory_gb"), "gpu_memory_gb", 1, 1e6) * 1e9;
  if (value.contains("accelerator")) {
    const std::string name = text("accelerator");
    reader.parse_with(at("accelerator"), "accelerator", [&] { return find_accelerator(name, "accelerator").name; });
    query.accelerator = name;
  }
  // Tensor and sequence parallelism and the attention kernel, as `ringviz memory --tp --sp
  // --attention --block` take them; validate_iteration_query below checks tp against the GPUs
  // and the heads, and sp against tp, naming the field.
  if (value.contains("tp")) query.tp = static_cast<int>(reader.integer(value["tp"], at("tp"), "tp", 1, kMaxRanks));
  if (value.contains("sp")) query.sp = reader.boolean(value["sp"], at("sp"), "sp");
  if (value.contains("attention"))
    query.attention = reader.parse_with(at("attention"), "attention",
                                        [&] { return parse_attention(text("attention"), "attention"); });
  if (value.contains("block"))
    query.block = reader.parse_with(at("block"), "block", [&] { return parse_block(text("block"), "block"); });
  query.gpus = config.ranks;
  query.order = config.order;
  reader.parse_with(pointer, "memory", [&] {
    validate_iteration_query(query);
    return estimate_iteration(query).fits;  // refuses counts that overflow
  });
  memory.iteration = query;
  return memory;
}

LessonMemory read_memory(const LessonReader& reader, const json& value, const std::string& pointer,
                         const Config& config) {
  reader.expect_object(value, pointer, "memory",
                       {"params", "strategies", "convention", "model", "layers", "hidden", "heads", "vocab", "seq",
                        "micro_batch", "recompute", "offload", "gpu_memory_gb", "accelerator", "tp", "sp",
                        "attention", "block"});
  auto at = [&](std::string_view key) { return pointer + "/" + std::string(key); };
  LessonMemory memory;
  if (value.contains("model")) return read_iteration_memory(reader, value, pointer, config);
  for (const char* key : {"layers", "hidden", "heads", "vocab", "seq", "micro_batch", "recompute", "offload",
                          "gpu_memory_gb", "accelerator", "tp", "sp", "attention", "block"})
    if (value.contains(key))
      reader.fail(at(key), key, "given without \"model\" (only a transformer's whole iteration uses it)");
  const json& params = reader.require(value, pointer, "params", "the model's parameter count, e.g. \"7B\"");
  if (params.is_string()) {
    memory.params = reader.parse_with(at("params"), "params", [&] {
      return parse_parameter_count(params.get<std::string>(), "params");
    });
  } else {
    memory.params = reader.integer(params, at("params"), "params", 1, kMaxModelParameters);
  }
  memory.strategies = read_name_list(
      reader, reader.require(value, pointer, "strategies", "which strategies to compare"),
      at("strategies"), "strategies",
      [](std::string_view text, std::string_view field) { return parse_strategy(text, field); });
  if (value.contains("convention"))
    memory.convention = reader.parse_with(at("convention"), "convention", [&] {
      return parse_convention(reader.string_value(value["convention"], at("convention"), "convention"),
                              "convention");
    });
  MemoryQuery query;
  query.parameters = memory.params;
  query.gpus = config.ranks;
  reader.parse_with(pointer, "memory", [&] {
    validate_memory_query(query);
    return 0;
  });
  return memory;
}

LessonTraining read_training(const LessonReader& reader, const json& value,
                             const std::string& pointer, const Config& config) {
  reader.expect_object(value, pointer, "training", {"iterations", "strategies", "seed"});
  auto at = [&](std::string_view key) { return pointer + "/" + std::string(key); };
  LessonTraining training;
  training.iterations = static_cast<int>(reader.integer(
      reader.require(value, pointer, "iterations", "how many training steps to run"),
      at("iterations"), "iterations", 1, kMaxLessonTrainingIterations));
  training.strategies = read_name_list(
      reader, reader.require(value, pointer, "strategies", "which runs to show, e.g. nosync and ddp"),
      at("strategies"), "strategies", [](std::string_view text, std::string_view field) {
        return parse_train_strategy(text, field);
      });
  if (value.contains("seed"))
    training.seed = static_cast<std::uint64_t>(
        reader.integer(value["seed"], at("seed"), "seed", 0, std::numeric_limits<long long>::max()));
  // The run takes its GPUs and element type from the scene's config: say so when they do not
  // suit a training run (e.g. dtype i32).
  TrainingOptions options;
  options.gpus = config.ranks;
  options.dtype = config.dtype;
  options.order = config.order;
  options.seed = training.seed;
  for (TrainStrategy strategy : training.strategies) {
    options.strategy = strategy;
    reader.parse_with(pointer, "training", [&] {
      validate_training_options(options);
      return 0;
    });
  }
  return training;
}

std::vector<int> read_gpu_list(const LessonReader& reader, const json& value,
                               const std::string& pointer, std::string_view field, int ranks) {
  reader.check_length(value, pointer, field, kMaxLessonListEntries, "entries");
  if (!value.is_array())
    reader.fail(pointer, field, "expected an array of GPU numbers, got " + std::string(json_type_name(value)));
  std::vector<int> gpus;
  for (std::size_t i = 0; i < value.size(); ++i)
    gpus.push_back(static_cast<int>(
        reader.integer(value[i], pointer + "/" + std::to_string(i), field, 0, ranks - 1)));
  return gpus;
}

Highlight read_highlight(const LessonReader& reader, const json& value, const std::string& pointer,
                         const LessonScene& scene, const Schedule& schedule) {
  reader.expect_object(value, pointer, "highlight", {"gpus", "slots", "transfers"});
  const int ranks = scene.config.ranks;
  Highlight highlight;
  if (value.contains("gpus"))
    highlight.gpus = read_gpu_list(reader, value["gpus"], pointer + "/gpus", "gpus", ranks);

  if (value.contains("slots")) {
    const json& slots = value["slots"];
    const std::string slots_pointer = pointer + "/slots";
    reader.check_length(slots, slots_pointer, "slots", kMaxLessonListEntries, "entries");
    if (!slots.is_array())
      reader.fail(slots_pointer, "slots", "expected an array of {\"gpu\", \"slot\"} objects");
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const std::string at = slots_pointer + "/" + std::to_string(i);
      reader.expect_object(slots[i], at, "slots", {"gpu", "slot"});
      SlotHighlight slot;
      if (slots[i].contains("gpu"))
        slot.gpu = static_cast<int>(reader.integer(slots[i]["gpu"], at + "/gpu", "gpu", 0, ranks - 1));
      slot.slot = static_cast<int>(reader.integer(
          reader.require(slots[i], at, "slot", "which chunk, 0 to GPUs - 1"), at + "/slot", "slot",
          0, ranks - 1));
      highlight.slots.push_back(slot);
    }
  }

  if (value.contains("transfers")) {
    const json& filters = value["transfers"];
    const std::string filters_pointer = pointer + "/transfers";
    reader.check_length(filters, filters_pointer, "transfers", kMaxLessonListEntries, "entries");
    if (!filters.is_array())
      reader.fail(filters_pointer, "transfers",
                  "expected an array of {\"round\", \"src\", \"slot\"} filters");
    for (std::size_t i = 0; i < filters.size(); ++i) {
      const std::string at = filters_pointer + "/" + std::to_string(i);
      const json& filter = filters[i];
      reader.expect_object(filter, at, "transfers", {"round", "src", "slot"});
      if (filter.empty())
        reader.fail(at, "transfers", "an empty filter; give at least one of round, src, slot");
      std::optional<int> round, src, slot;
      if (filter.contains("round")) {
        if (scene.round_count == 0)
          reader.fail(at + "/round", "round", "this scene's collective has no rounds");
        round = static_cast<int>(
            reader.integer(filter["round"], at + "/round", "round", 1, scene.round_count));
      }
      if (filter.contains("src"))
        src = static_cast<int>(reader.integer(filter["src"], at + "/src", "src", 0, ranks - 1));
      if (filter.contains("slot"))
        slot = static_cast<int>(reader.integer(filter["slot"], at + "/slot", "slot", 0, ranks - 1));
      std::size_t matched = 0;
      for (int r = 0; r < schedule.round_count(); ++r) {
        if (round && *round != r + 1) continue;
        for (const Transfer& transfer : schedule.rounds[static_cast<std::size_t>(r)].transfers) {
          if ((src && *src != transfer.src) || (slot && *slot != transfer.slot)) continue;
          const TransferRef ref{r + 1, transfer.src, transfer.dst, transfer.slot};
          if (std::find(highlight.transfers.begin(), highlight.transfers.end(), ref) ==
              highlight.transfers.end())
            highlight.transfers.push_back(ref);
          ++matched;
        }
      }
      if (matched == 0)
        reader.fail(at, "transfers",
                    "matches no transfer of " + std::string(algorithm_name(scene.config.algorithm)) +
                        " " + std::string(op_name(scene.config.op)) + " on " +
                        std::to_string(ranks) + " GPUs");
    }
  }
  return highlight;
}

Zoom read_zoom(const LessonReader& reader, const json& value, const std::string& pointer,
               const LessonScene& scene) {
  reader.expect_object(value, pointer, "zoom", {"view", "gpus", "scale"});
  Zoom zoom;
  zoom.view = scene.views.front();
  if (value.contains("view")) {
    const std::string name = reader.string_value(value["view"], pointer + "/view", "view");
    const std::optional<View> view = parse_view(name);
    if (!view || std::find(scene.views.begin(), scene.views.end(), *view) == scene.views.end()) {
      std::vector<std::string_view> shown;
      for (View v : scene.views) shown.push_back(view_name(v));
      reader.fail(pointer + "/view", "view",
                  "'" + name + "' is not one of this scene's views (" + join_commas(shown) + ")");
    }
    zoom.view = *view;
  }
  if (value.contains("gpus"))
    zoom.gpus = read_gpu_list(reader, value["gpus"], pointer + "/gpus", "gpus", scene.config.ranks);
  if (value.contains("scale"))
    zoom.scale = reader.number(value["scale"], pointer + "/scale", "scale", 1.0, kMaxZoom);
  return zoom;
}

// [from, to] with 0 <= from <= to <= last. `context` ends an out-of-range message with what
// the range was checked against: the usual mistake is forgetting that N GPUs take N - 1
// rounds per pass.
PositionRange read_range(const LessonReader& reader, const json& value, const std::string& pointer,
                         std::string_view field, int last, const std::string& context) {
  if (!value.is_array() || value.size() != 2)
    reader.fail(pointer, field,
                "expected [from, to], got " +
                    (value.is_array() ? "an array of " + std::to_string(value.size())
                                      : std::string(json_type_name(value))));
  int ends[2] = {0, 0};
  for (std::size_t k = 0; k < 2; ++k) {
    const std::string end_pointer = pointer + "/" + std::to_string(k);
    if (!value[k].is_number_integer())
      reader.fail(end_pointer, field,
                  "expected an integer, got " + std::string(json_type_name(value[k])));
    const bool negative = value[k].is_number_integer() && !value[k].is_number_unsigned() &&
                          value[k].get<long long>() < 0;
    if (negative || value[k].get<std::uint64_t>() > static_cast<std::uint64_t>(last))
      reader.fail(end_pointer, field,
                  value[k].dump() + " is out of range (0 to " + std::to_string(last) + "; " +
                      context + ")");
    ends[k] = value[k].get<int>();
  }
  if (ends[0] > ends[1])
    reader.fail(pointer, field,
                "from (" + std::to_string(ends[0]) + ") is after to (" + std::to_string(ends[1]) +
                    ")");
  return {ends[0], ends[1]};
}

LessonStep read_step(const LessonReader& reader, const json& value, const std::string& pointer,
                     const LessonScene& scene, const Schedule& schedule) {
  reader.expect_object(value, pointer, "steps",
                       {"rounds", "iterations", "seconds_per_round", "seconds_per_iteration",
                        "pause_before", "pause", "caption", "highlight", "zoom"});
  LessonStep step;
  auto at = [&](std::string_view key) { return pointer + "/" + std::string(key); };

  if (value.contains("rounds"))
    step.rounds = read_range(reader, value["rounds"], at("rounds"), "rounds", scene.round_count,
                             std::string(algorithm_name(scene.config.algorithm)) + " " +
                                 std::string(op_name(scene.config.op)) + " on " +
                                 count_of(Noun::gpus, std::to_string(scene.config.ranks), Language::en) + " has " +
                                 std::to_string(scene.round_count) + (scene.round_count == 1 ? " round" : " rounds"));
  if (value.contains("iterations")) {
    if (!scene.training)
      reader.fail(at("iterations"), "iterations",
                  "only a scene with the training view and a \"training\" block plays iterations");
    if (step.rounds)
      reader.fail(at("iterations"), "iterations", "a step plays rounds or iterations, not both");
    step.iterations = read_range(reader, value["iterations"], at("iterations"), "iterations",
                                 scene.training->iterations,
                                 "the scene's training run has " +
                                     std::to_string(scene.training->iterations) + " iterations");
  }
  if (value.contains("seconds_per_round")) {
    if (!step.rounds)
      reader.fail(at("seconds_per_round"), "seconds_per_round", "only makes sense with \"rounds\"");
    step.seconds_per_unit = reader.number(value["seconds_per_round"], at("seconds_per_round"),
                                          "seconds_per_round", 0.0, kMaxSecondsPerUnit, false);
  }
  if (value.contains("seconds_per_iteration")) {
    if (!step.iterations)
      reader.fail(at("seconds_per_iteration"), "seconds_per_iteration",
                  "only makes sense with \"iterations\"");
    step.seconds_per_unit = reader.number(value["seconds_per_iteration"], at("seconds_per_iteration"),
                                          "seconds_per_iteration", 0.0, kMaxSecondsPerUnit, false);
  }
  if (value.contains("pause_before"))
    step.pause_before =
        reader.number(value["pause_before"], at("pause_before"), "pause_before", 0.0, kMaxPause);
  if (value.contains("pause"))
    step.pause = reader.number(value["pause"], at("pause"), "pause", 0.0, kMaxPause);

  step.caption = reader.localized(reader.require(value, pointer, "caption", "what the step says"),
                                  at("caption"), "caption");
  if (value.contains("highlight"))
    step.highlight = read_highlight(reader, value["highlight"], at("highlight"), scene, schedule);
  if (value.contains("zoom")) step.zoom = read_zoom(reader, value["zoom"], at("zoom"), scene);

  if (!(step.duration() > 0.0))
    reader.fail(pointer, "pause",
                "the step lasts 0 seconds; give it rounds or iterations to play, or a pause");
  return step;
}

// The collective of the job at `path` a scene steps ("collective", 0 when absent), and its
// config.
std::size_t read_job_collective(const LessonReader& reader, const json& scene, const std::string& pointer,
                                const std::filesystem::path& path, Config& config) {
  const Job job = read_job_document(path.string());
  const std::vector<RunCollective> collectives = run_collectives(job.run);
  std::size_t index = 0;
  if (scene.contains("collective")) {
    const json& value = scene["collective"];
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() >= collectives.size())
      reader.fail(pointer, "collective",
                  "expected a collective of the job, 0 to " + std::to_string(collectives.size() - 1));
    index = static_cast<std::size_t>(value.get<std::uint64_t>());
  }
  config = collective_config(job.run, collectives[index]);
  return index;
}

LessonScene read_scene(const LessonReader& reader, const json& value, const std::string& pointer) {
  reader.expect_object(value, pointer, "scenes",
                       {"title", "config", "open", "collective", "views", "memory", "training", "steps"});
  auto at = [&](std::string_view key) { return pointer + "/" + std::string(key); };
  LessonScene scene;
  scene.title = reader.localized(reader.require(value, pointer, "title", "the scene's heading"),
                                 at("title"), "title");
  if (value.contains("config")) scene.config = read_config(reader, value["config"], at("config"));
  if (value.contains("open")) {
    if (value.contains("config"))
      reader.fail(at("open"), "open", "not with \"config\" (the recorded run brings its collective)");
    const std::string name = reader.string_value(value["open"], at("open"), "open");
    const std::filesystem::path path = reader.source_folder().parent_path() / name;
    try {
      if (is_job_document_file(path.string())) {
        scene.collective = read_job_collective(reader, value, at("collective"), path, scene.config);
      } else {
        scene.config = read_recorded_run(path.string()).config;
      }
    } catch (const InputError& problem) {
      reader.fail(at("open"), "open", std::string("cannot replay it: ") + problem.what());
    }
    if (working_set_bytes(scene.config) > kMaxLessonWorkingSet)
      reader.fail(at("open"), "open", "the recorded run's buffers exceed the 64 MiB a lesson may use; lessons show small buffers");
    scene.open = path;
  }
  const Schedule schedule = make_schedule(scene.config);
  scene.round_count = schedule.round_count();

  if (value.contains("collective") && !scene.collective)
    reader.fail(at("collective"), "collective", "only with \"open\" of a job (ringviz job import)");
  scene.views = read_views(reader, reader.require(value, pointer, "views", "the panels to show"),
                           at("views"));
  if (std::find(scene.views.begin(), scene.views.end(), View::job) != scene.views.end() && !scene.collective)
    reader.fail(at("views"), "views", "\"job\" needs \"open\" of a job (ringviz job import)");
  const auto shows = [&](View view) {
    return std::find(scene.views.begin(), scene.views.end(), view) != scene.views.end();
  };
  if (value.contains("memory")) {
    if (!shows(View::memory))
      reader.fail(at("memory"), "memory", "given, but the scene does not show the memory view");
    scene.memory = read_memory(reader, value["memory"], at("memory"), scene.config);
  } else if (shows(View::memory)) {
    reader.fail(pointer, "memory", "missing (the memory view needs a \"memory\" block)");
  }
  if (value.contains("training")) {
    if (!shows(View::training))
      reader.fail(at("training"), "training", "given, but the scene does not show the training view");
    scene.training = read_training(reader, value["training"], at("training"), scene.config);
  } else if (shows(View::training)) {
    reader.fail(pointer, "training", "missing (the training view needs a \"training\" block)");
  }

  const json& steps = reader.require(value, pointer, "steps", "what to play and say");
  reader.check_length(steps, at("steps"), "steps", kMaxLessonSteps, "steps");
  if (!steps.is_array() || steps.empty())
    reader.fail(at("steps"), "steps", "expected a non-empty array of steps");
  for (std::size_t i = 0; i < steps.size(); ++i)
    scene.steps.push_back(
        read_step(reader, steps[i], at("steps") + "/" + std::to_string(i), scene, schedule));
  return scene;
}

}  // namespace

Lesson parse_lesson(std::string_view json_text, std::string_view source) {
  // Bounded nesting first: the position index below walks the text recursively.
  const json document = parse_json_input(json_text, escape_for_message(source));

  const LessonReader reader(json_text, source);

  reader.expect_object(document, "", "lesson", {"schema", "title", "summary", "scenes"});
  const std::string schema = reader.string_value(
      reader.require(document, "", "schema", "\"" + std::string(kLessonSchema) + "\""), "/schema",
      "schema");
  if (schema != kLessonSchema)
    reader.fail("/schema", "schema",
                "'" + schema + "' is not a lesson schema this ringviz reads (expected '" +
                    std::string(kLessonSchema) + "')");

  Lesson lesson;
  lesson.source = std::string(source);
  lesson.title = reader.localized(reader.require(document, "", "title", "the lesson's name"),
                                  "/title", "title");
  lesson.summary = reader.localized(
      reader.require(document, "", "summary", "one or two sentences on what it teaches"),
      "/summary", "summary");
  const json& scenes = reader.require(document, "", "scenes", "the lesson's content");
  reader.check_length(scenes, "/scenes", "scenes", kMaxLessonScenes, "scenes");
  if (!scenes.is_array() || scenes.empty())
    reader.fail("/scenes", "scenes", "expected a non-empty array of scenes");
  for (std::size_t i = 0; i < scenes.size(); ++i)
    lesson.scenes.push_back(read_scene(reader, scenes[i], "/scenes/" + std::to_string(i)));
  retime_lesson(lesson);
  return lesson;
}

Lesson load_lesson_file(const std::filesystem::path& path) {
  return parse_lesson(read_input_text(path.string(), "lesson file", kMaxLessonFileBytes), path.string());
}

}  // namespace ringviz
