#include "core/kineto/chrome_trace_stream.h"

#include <istream>
#include <vector>

#include "core/input/json_input.h"
#include "core/kineto/trace_text_stream.h"
#include "core/model/input_error.h"

namespace ringviz {
namespace {

using nlohmann::json;

// nlohmann's SAX events, turned into one small document per event (and per other top-level
// member). Depth 0 is outside everything; the top-level object is depth 1.
class EventBuilder final : public nlohmann::json_sax<json> {
 public:
  EventBuilder(ChromeTraceSink& sink, ChromeTraceSummary& summary) : sink_(sink), summary_(summary) {}

  bool null() override { return value(json(nullptr)); }
  bool boolean(bool v) override { return value(json(v)); }
  bool number_integer(number_integer_t v) override { return value(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return value(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return value(json(v)); }
  bool string(string_t& v) override { return value(json(std::move(v))); }
  bool binary(binary_t&) override { return value(json(nullptr)); }

  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override {
    if (depth_ == 1 && top_key_ == "traceEvents" && building_.empty()) {
      summary_.has_trace_events = true;
      in_events_ = true;
      ++depth_;
      return true;
    }
    return open(json::array());
  }
  bool end_object() override { return close(); }
  bool end_array() override {
    if (in_events_ && depth_ == 2 && building_.empty()) {
      in_events_ = false;
      --depth_;
      return true;
    }
    return close();
  }
  bool key(string_t& k) override {
    if (depth_ == 1 && building_.empty()) {
      top_key_ = k;
      return true;
    }
    pending_key_ = std::move(k);
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& error) override {
    error_position_ = position;
    error_text_ = error.what();
    return false;
  }

  std::size_t error_position() const { return error_position_; }
  const std::string& error_text() const { return error_text_; }
  bool not_object() const { return not_object_; }
  bool too_deep() const { return too_deep_; }

 private:
  // A value at depth 0 is the whole document: it must be an object.
  bool value(json&& v) {
    if (depth_ == 0) return top_scalar();
    if (building_.empty()) {
      if (in_events_ && depth_ == 2) {
        sink_.event(summary_.events++, v);
      } else if (depth_ == 1) {
        sink_.member(top_key_, v);
      }
      return true;
    }
    insert(std::move(v));
    return true;
  }
  bool open(json&& container) {
    if (depth_ == 0) {
      if (!container.is_object()) return top_scalar();
      ++depth_;
      return true;
    }
    ++depth_;
    if (building_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      too_deep_ = true;
      return false;
    }
    if (building_.empty()) {
      root_ = std::move(container);
      building_.push_back(&root_);
    } else {
      building_.push_back(insert(std::move(container)));
    }
    return true;
  }
  bool close() {
    --depth_;
    if (building_.empty()) return true;  // the top-level object itself
    building_.pop_back();
    if (!building_.empty()) return true;
    if (in_events_ && depth_ == 2) {
      sink_.event(summary_.events++, root_);
    } else if (depth_ == 1) {
      sink_.member(top_key_, root_);
    }
    root_ = json();
    return true;
  }
  json* insert(json&& v) {
    json& parent = *building_.back();
    if (parent.is_object()) return &(parent[pending_key_] = std::move(v));
    parent.push_back(std::move(v));
    return &parent.back();
  }
  bool top_scalar() {
    not_object_ = true;
    return false;
  }

  ChromeTraceSink& sink_;
  ChromeTraceSummary& summary_;
  int depth_ = 0;
  bool in_events_ = false;
  bool not_object_ = false;
  bool too_deep_ = false;
  std::string top_key_, pending_key_;
  json root_;
  std::vector<json*> building_;
  std::size_t error_position_ = 0;
  std::string error_text_;
};

std::string at_position(const std::string& path, std::uint64_t offset) {
  const auto [line, column] = trace_line_column(path, offset);
  return path + ":" + std::to_string(line) + ":" + std::to_string(column);
}

// nlohmann's message, without its "[json.exception...] " prefix.
std::string syntax_problem(const std::string& text) {
  const std::size_t colon = text.rfind(": ");
  return colon == std::string::npos ? text : text.substr(colon + 2);
}

}  // namespace

ChromeTraceSummary stream_chrome_trace(const std::string& path, ChromeTraceSink& sink) {
  ChromeTraceSummary summary;
  TraceTextStream text(path);
  summary.file_bytes = text.file_bytes();
  std::istream in(&text);
  EventBuilder builder(sink, summary);
  const bool parsed = json::sax_parse(in, &builder, json::input_format_t::json, true, false);
  summary.text_bytes = text.text_bytes_read();
  if (builder.not_object())
    throw InputError(path + ":1:1: not a PyTorch profiler trace: the file is JSON but not an object "
                     "with \"traceEvents\"");
  if (builder.too_deep())
    throw InputError(at_position(path, text.text_bytes_read()) + ": arrays and objects nest deeper than " +
                     std::to_string(kMaxJsonDepth) + " levels; not a profiler trace");
  if (!parsed) {
    if (builder.error_position() == 0 || summary.text_bytes == 0)
      throw InputError(path + ": empty file; not a PyTorch profiler trace");
    throw InputError(at_position(path, builder.error_position() > 0 ? builder.error_position() - 1 : 0) +
                     ": not valid JSON (" + syntax_problem(builder.error_text()) + ")");
  }
  return summary;
}

}  // namespace ringviz
