#include "app/web/view_link.h"

#include <algorithm>
#include <array>

#include "core/model/input_error.h"

namespace ringviz::web {

namespace {

// The keys a link may hold: the flags view_command_args writes, no more (a link must not name
// an output file or change how the page runs).
constexpr std::array<std::string_view, 19> kLinkKeys = {
    "op",    "algo", "order",   "gpus",    "count", "dtype",    "reduce", "init",     "view",  "round",
    "lang", "present", "predict", "open", "channels", "slices", "topology", "root", "splits"};

bool is_link_key(std::string_view key) { return std::find(kLinkKeys.begin(), kLinkKeys.end(), key) != kLinkKeys.end(); }

// "op, algo, ..., lesson, scene": what the refusal of another key lists.
std::string link_keys_text() {
  std::string text;
  for (const std::string_view key : kLinkKeys) text += std::string(key) + ", ";
  return text + "lesson, scene";
}

// Characters a fragment keeps as they are (RFC 3986's unreserved ones, and those the values of
// --init and --open use that mean nothing in a fragment's pairs).
bool plain_in_fragment(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~' || c == ',' || c == '/' || c == ':';
}

std::string percent_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    if (plain_in_fragment(c)) {
      out += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%') {
      const int high = i + 2 < text.size() ? hex_digit(text[i + 1]) : -1;
      const int low = i + 2 < text.size() ? hex_digit(text[i + 2]) : -1;
      if (high < 0 || low < 0)
        throw InputError("the link has a broken escape at '" + std::string(text.substr(i, 3)) +
                         "' (a % must be followed by two hexadecimal digits)");
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      out += text[i] == '+' ? ' ' : text[i];
    }
  }
  return out;
}

}  // namespace

std::string view_link_fragment(const gui::ViewState& state, const LinkLesson& lesson) {
  const std::vector<std::string> args = gui::view_command_args(state);
  std::string fragment = "#";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].rfind("--", 0) != 0) continue;  // a value, written with its flag
    if (fragment.size() > 1) fragment += '&';
    fragment += percent_encode(args[i].substr(2));
    const bool has_value = i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0;
    if (has_value) fragment += '=' + percent_encode(args[++i]);
  }
  if (!lesson.name.empty()) {
    fragment += "&lesson=" + percent_encode(lesson.name);
    if (!lesson.scene.empty()) fragment += "&scene=" + percent_encode(lesson.scene);
  }
  return fragment;
}

std::vector<std::string> fragment_arguments(std::string_view fragment, LinkLesson* lesson) {
  if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
  std::vector<std::string> args;
  while (!fragment.empty()) {
    const std::size_t end = std::min(fragment.find('&'), fragment.size());
    const std::string_view pair = fragment.substr(0, end);
    fragment.remove_prefix(std::min(end + 1, fragment.size()));
    if (pair.empty()) continue;
    const std::size_t equals = pair.find('=');
    const std::string key = percent_decode(pair.substr(0, equals));
    const std::string value = equals == std::string_view::npos ? std::string() : percent_decode(pair.substr(equals + 1));
    if (lesson != nullptr && (key == "lesson" || key == "scene")) {
      (key == "lesson" ? lesson->name : lesson->scene) = value;
      continue;
    }
    if (!is_link_key(key))
      throw InputError("the link names '" + key + "', which a link does not hold (it holds " + link_keys_text() + ")");
    args.push_back("--" + key);
    if (equals != std::string_view::npos) args.push_back(value);
  }
  return args;
}

}  // namespace ringviz::web
