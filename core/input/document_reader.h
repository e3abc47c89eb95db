#pragma once
// A JSON document a user hands ringviz (a trace, a job), read field by field: every problem is
// one InputError "<source>:<line>:<column>: <path>: <problem>", the path written as a reader
// names it ("rounds[2].transfers[0]") (docs/architecture.md, "Reading input files").
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/input/json_input.h"
#include "core/model/buffers.h"
#include "core/model/dtype.h"
#include "core/model/input_error.h"
#include "core/model/text.h"

namespace ringviz {

// "/rounds/2/transfers/0" as a reader names it: "rounds[2].transfers[0]".
std::string readable_path(std::string_view pointer);
// A found value as a message shows it: a short string in quotes, a number, "an array".
std::string kind_of(const nlohmann::json& value);

class DocumentReader {
 public:
  DocumentReader(std::string_view text, std::string_view source)
      : text_(text), source_(escape_for_message(source)), document_(parse_json_input(text_, source_)) {}

  const nlohmann::json& document() const { return document_; }

  [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const;
  const nlohmann::json& object(const nlohmann::json& value, const std::string& pointer) const;
  const nlohmann::json& array(const nlohmann::json& value, const std::string& pointer, std::size_t size) const;
  const nlohmann::json& member(const nlohmann::json& parent, const std::string& pointer, const char* key) const;
  std::int64_t integer(const nlohmann::json& value, const std::string& pointer, std::int64_t low, std::int64_t high) const;
  double real(const nlohmann::json& value, const std::string& pointer) const;
  const std::string& text(const nlohmann::json& value, const std::string& pointer) const;

  template <class Parser>
  auto named(const nlohmann::json& value, const std::string& pointer, const Parser& parse) const {
    const std::string& name = text(value, pointer);
    try {
      return parse(name);
    } catch (const InputError& error) {
      // The parsers start with their flag's name ("op: unknown value ..."); the path says it.
      const std::string message = error.what();
      const std::size_t colon = message.find(": ");
      fail(pointer, colon == std::string::npos ? message : message.substr(colon + 2));
    }
  }

  // One element; null (a slot nothing has reached) reads as zero and `empty` is set.
  ElementValue element(const nlohmann::json& value, const std::string& pointer, DType type, bool& empty) const;

 private:
  std::string_view text_;
  std::string source_;
  nlohmann::json document_;
};

}  // namespace ringviz
