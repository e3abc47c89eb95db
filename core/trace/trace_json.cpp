#include "core/trace/trace_json.h"

#include <cmath>
#include <cstdlib>

#include "core/trace/trace_values.h"

namespace ringviz {

namespace {

using Json = nlohmann::ordered_json;

Json element_json(const ElementValue& value, DType dtype) {
  if (value.is_integer) return value.integer;
  if (std::isnan(value.real)) return "nan";
  if (std::isinf(value.real)) return value.real > 0 ? "inf" : "-inf";
  // JSON has one kind of number: a whole float is written 6, as the table and Markdown
  // formats write it, rather than 6.0. Below 2^53 that is exact; -0 keeps its sign.
  if (value.real == std::floor(value.real) && std::fabs(value.real) < 0x1.0p53 &&
      !(value.real == 0 && std::signbit(value.real)))
    return static_cast<std::int64_t>(value.real);
  if (dtype == DType::f64) return value.real;
  // The JSON writer prints a double's shortest form; handing it the double nearest the
  // float's shortest decimal makes 0.1f come out as 0.1 rather than 0.10000000149011612.
  return std::strtod(shortest_decimal(static_cast<float>(value.real)).c_str(), nullptr);
}

// One rank's working buffer, with null where the slot has no contributor yet.
Json buffer_json(const Trace& trace, const BufferState& buffers, const Provenance& provenance, int rank) {
  Json row = Json::array();
  for (int slot = 0; slot < trace.layout.size(); ++slot) {
    const Slot& where = trace.layout[slot];
    const bool empty = provenance.at(rank, slot).none();
    for (std::int64_t i = 0; i < where.count; ++i)
      row.push_back(empty ? Json(nullptr)
                          : element_json(read_element(buffers, rank, where.offset + i), trace.config.dtype));
  }
  return row;
}

Json buffers_json(const Trace& trace, const BufferState& buffers, const Provenance& provenance) {
  Json all = Json::array();
  for (int rank = 0; rank < trace.config.ranks; ++rank) all.push_back(buffer_json(trace, buffers, provenance, rank));
  return all;
}

Json contributors_json(const Trace& trace, const Provenance& provenance) {
  Json all = Json::array();
  for (int rank = 0; rank < trace.config.ranks; ++rank) {
    Json slots = Json::array();
    for (int slot = 0; slot < trace.layout.size(); ++slot) {
      Json ranks = Json::array();
      const RankSet& set = provenance.at(rank, slot);
      for (int contributor = 0; contributor < trace.config.ranks; ++contributor)
        if (set.test(static_cast<std::size_t>(contributor))) ranks.push_back(contributor);
      slots.push_back(std::move(ranks));
    }
    all.push_back(std::move(slots));
  }
  return all;
}

Json round_json(const Trace& trace, const TraceRound& round) {
  const auto element = static_cast<std::int64_t>(dtype_size(trace.config.dtype));
  Json transfers = Json::array();
  for (const Transfer& transfer : round.round.transfers)
    transfers.push_back({{"src", transfer.src},
                         {"dst", transfer.dst},
                         {"slot", transfer.slot},
                         {"kind", transfer_kind_name(transfer.kind)},
                         {"bytes", trace.layout[transfer.slot].count * element}});
  Json json = {{"round", round.number}, {"phase", phase_name(round.round.phase)}};
  if (round.microseconds) json["time_us"] = *round.microseconds;
  json["transfers"] = std::move(transfers);
  json["buffers"] = buffers_json(trace, round.buffers, round.provenance);
  json["contributors"] = contributors_json(trace, round.provenance);
  return json;
}

// Holds only numbers, strings, booleans and nulls (an array's items or an object's values).
bool is_flat(const Json& container) {
  for (const Json& item : container)
    if (item.is_structured()) return false;
  return true;
}

std::string scalar_text(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void write_value(std::ostream& out, const Json& value, int depth) {
  const std::string inner(static_cast<std::size_t>(depth + 1) * 2, ' ');
  const std::string outer(static_cast<std::size_t>(depth) * 2, ' ');
  if (value.is_object() && is_flat(value)) {
    // A slot or a transfer is one record: keep it on one line too.
    out << "{";
    bool first = true;
    for (const auto& [key, item] : value.items()) {
      out << (first ? "" : ", ") << scalar_text(Json(key)) << ": " << scalar_text(item);
      first = false;
    }
    out << "}";
  } else if (value.is_object()) {
    out << "{\n";
    bool first = true;
    for (const auto& [key, item] : value.items()) {
      out << (first ? "" : ",\n") << inner << scalar_text(Json(key)) << ": ";
      write_value(out, item, depth + 1);
      first = false;
    }
    out << "\n" << outer << "}";
  } else if (value.is_array() && !value.empty() && !is_flat(value)) {
    out << "[\n";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out << (i ? ",\n" : "") << inner;
      write_value(out, value[i], depth + 1);
    }
    out << "\n" << outer << "]";
  } else if (value.is_array()) {
    // A rank's buffer can be millions of values: build the line, then write it once.
    std::string line = "[";
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i) line += ", ";
      line += scalar_text(value[i]);
    }
    line += "]";
    out << line;
  } else {
    out << scalar_text(value);
  }
}

}  // namespace

Json trace_to_json(const Trace& trace) {
  const Config& config = trace.config;
  Json document;
  document["schema"] = kTraceSchema;
  document["config"] = {{"op", op_name(config.op)},
                        {"algorithm", algorithm_name(config.algorithm)},
                        {"order", order_name(config.order)},
                        {"ranks", config.ranks},
                        {"count", config.count},
                        {"dtype", dtype_name(config.dtype)},
                        {"reduce", reduce_op_name(config.reduce)},
                        {"init", config.init.spec()},
                        {"backend", trace.backend}};
  Json slots = Json::array();
  for (const Slot& slot : trace.layout.slots) slots.push_back({{"offset", slot.offset}, {"count", slot.count}});
  document["slots"] = std::move(slots);
  document["initial"] = buffers_json(trace, trace.initial, trace.initial_provenance);
  Json rounds = Json::array();
  for (const TraceRound& round : trace.rounds) rounds.push_back(round_json(trace, round));
  document["rounds"] = std::move(rounds);

  Json outputs = Json::array();
  for (const ByteBuffer& output : trace.outputs) {
    Json row = Json::array();
    for (std::int64_t i = 0; i < element_count(output, config.dtype); ++i)
      row.push_back(element_json(read_element(output, config.dtype, i), config.dtype));
    outputs.push_back(std::move(row));
  }
  document["outputs"] = std::move(outputs);
  Json sent = Json::array();
  Json received = Json::array();
  for (int rank = 0; rank < config.ranks; ++rank) {
    sent.push_back(trace.traffic.total_sent(rank));
    received.push_back(trace.traffic.total_received(rank));
  }
  document["bytes_sent"] = std::move(sent);
  document["bytes_received"] = std::move(received);
  return document;
}

void write_json(std::ostream& out, const Json& document) {
  write_value(out, document, 0);
  out << "\n";
}

}  // namespace ringviz
