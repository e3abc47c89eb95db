#include "core/trace/trace_json.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/algorithms/registry.h"
#include "core/engine/provenance.h"
#include "core/model/layout.h"
#include "core/schedule/pipeline.h"
#include "core/schedule/schedule.h"
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

// One rank's working buffer, with null where the slot (in a pipeline, the piece) has no
// contributor yet.
Json buffer_json(const Trace& trace, const BufferState& buffers, const Provenance& provenance, int rank) {
  Json row = Json::array();
  const PipelineShape shape = pipeline_shape_of(trace.schedule);
  for (int slot = 0; slot < trace.layout.size(); ++slot)
    for (int piece = 0; piece < shape.pieces_per_slot(); ++piece) {
      const Slot where = piece_span(trace.layout[slot], shape, piece);
      const bool empty = provenance.at(rank, slot, piece).none();
      for (std::int64_t i = 0; i < where.count; ++i)
        row.push_back(empty ? Json(nullptr)
                            : element_json(read_element(buffers, rank, where.offset + i), trace.config.dtype));
    }
  return row;
}

// Config::splits as rows, row s what GPU s sends to GPU 0, 1, ...
Json split_rows_json(const Config& config) {
  Json rows = Json::array();
  for (int sender = 0; sender < config.ranks; ++sender) {
    Json row = Json::array();
    for (int receiver = 0; receiver < config.ranks; ++receiver) row.push_back(split_of(config, sender, receiver));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string scalar_text(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// scalar_text for the values a buffer is mostly made of, without building a string each:
// dumping every element on its own was most of a large trace's time.
void append_scalar(std::string& line, const Json& value) {
  char digits[24];
  if (value.is_null()) {
    line += "null";
  } else if (value.is_number_integer()) {
    const auto end = value.is_number_unsigned()
                         ? std::to_chars(digits, digits + sizeof digits, value.get<std::uint64_t>()).ptr
                         : std::to_chars(digits, digits + sizeof digits, value.get<std::int64_t>()).ptr;
    line.append(digits, end);
  } else {
    line += scalar_text(value);
  }
}

// A value made of plain values only (a number, a string, a row, a slot, a transfer), on one
// line. A rank's buffer can be millions of values: build the line, then write it once.
std::string plain_text(const Json& value) {
  if (!value.is_structured()) return scalar_text(value);
  const bool object = value.is_object();
  std::string line(1, object ? '{' : '[');
  bool first = true;
  for (const auto& [name, item] : value.items()) {
    if (!first) line += ", ";
    if (object) line += scalar_text(Json(name)) + ": ";
    append_scalar(line, item);
    first = false;
  }
  line += object ? '}' : ']';
  return line;
}

}  // namespace

// An empty array or object is closed on the line it opened on; a non-empty one puts each item
// on its own line, indented two spaces per level.
void JsonTraceWriter::open(char bracket) {
  out_ << bracket;
  items_.push_back(0);
}

void JsonTraceWriter::close(char bracket) {
  const bool empty = items_.back() == 0;
  items_.pop_back();
  if (!empty) out_ << "\n" << std::string(items_.size() * 2, ' ');
  out_ << bracket;
}

void JsonTraceWriter::next_item() {
  if (items_.back()++ > 0) out_ << ",";
  out_ << "\n" << std::string(items_.size() * 2, ' ');
}

void JsonTraceWriter::key(const char* name) {
  next_item();
  out_ << scalar_text(Json(name)) << ": ";
}

void JsonTraceWriter::value(const Json& plain) { out_ << plain_text(plain); }

void JsonTraceWriter::buffers(const Trace& trace, const BufferState& buffers, const Provenance& provenance) {
  open('[');
  for (int rank = 0; rank < trace.config.ranks; ++rank) {
    next_item();
    value(buffer_json(trace, buffers, provenance, rank));
  }
  close(']');
}

// A 256-GPU round has 65536 sets of up to 256 ranks: each rank's sets are written as one
// piece of text, formatted directly rather than through document nodes.
void JsonTraceWriter::contributors(const Trace& trace, const Provenance& provenance) {
  open('[');
  std::string text;
  char digits[16];
  for (int rank = 0; rank < trace.config.ranks; ++rank) {
    next_item();
    open('[');
    const std::string indent = "\n" + std::string(items_.size() * 2, ' ');
    text.clear();
    for (int slot = 0; slot < trace.layout.size(); ++slot) {
      text += slot ? "," : "";
      text += indent;
      text += '[';
      const RankSet& set = provenance.at(rank, slot);
      bool first = true;
      for (int contributor = 0; contributor < trace.config.ranks; ++contributor) {
        if (!set.test(static_cast<std::size_t>(contributor))) continue;
        if (!first) text += ", ";
        text.append(digits, std::to_chars(digits, digits + sizeof digits, contributor).ptr);
        first = false;
      }
      text += ']';
    }
    out_ << text;
    items_.back() = trace.layout.size();
    close(']');
  }
  close(']');
}

void JsonTraceWriter::begin(const Trace& trace) {
  const Config& config = trace.config;
  items_.clear();
  open('{');
  key("schema");
  value(kTraceSchema);
  key("config");
  Json config_json{{"op", op_name(config.op)},
                   {"algorithm", algorithm_name(config.algorithm)},
                   {"order", order_name(config.order)},
                   {"ranks", config.ranks},
                   {"count", config.count},
                   {"dtype", dtype_name(config.dtype)},
                   {"reduce", reduce_op_name(config.reduce)},
                   {"init", config.init.spec()},
                   {"backend", trace.backend}};
  // A broadcast names its source; the other ops have none, and their documents stay as they were.
  if (config.op == Op::broadcast) config_json["root"] = config.root;
  // Likewise an uneven AllToAll's block sizes, one row per sender.
  if (uneven_all_to_all(config)) config_json["splits"] = split_rows_json(config);
  // Only a pipelined trace names its shape, so that lock-step documents stay as they were
  // (docs/architecture.md, "Pipelined schedules").
  const bool pipelined = trace.schedule.channels > 1 || trace.schedule.slices > 1;
  if (pipelined) {
    config_json["channels"] = config.channels;
    config_json["slices"] = config.slices;
  }
  value(config_json);
  if (pipelined) {
    key("pipeline");
    value(Json{{"channels", trace.schedule.channels},
               {"slices", trace.schedule.slices},
               {"rounds", lock_step_round_count(trace.schedule)},
               {"waves", trace.schedule.round_count()}});
  }
  key("slots");
  open('[');
  for (const Slot& slot : trace.layout.slots) {
    next_item();
    value(Json{{"offset", slot.offset}, {"count", slot.count}});
  }
  close(']');
  if (!trace.initial.ranks.empty()) {
    key("initial");
    buffers(trace, trace.initial, trace.initial_provenance);
  }
  key("rounds");
  open('[');
}

void JsonTraceWriter::round(const Trace& trace, const TraceRound& round) {
  const auto element = static_cast<std::int64_t>(dtype_size(trace.config.dtype));
  next_item();
  open('{');
  key("round");
  value(round.number);
  key("phase");
  value(phase_name(round.round.phase));
  if (round.microseconds) {
    key("time_us");
    value(*round.microseconds);
  }
  key("transfers");
  open('[');
  const PipelineShape shape = pipeline_shape_of(trace.schedule);
  for (const Transfer& transfer : round.round.transfers) {
    next_item();
    Json entry{{"src", transfer.src},
               {"dst", transfer.dst},
               {"slot", transfer.slot},
               {"kind", transfer_kind_name(transfer.kind)},
               {"bytes", transfer_span(transfer, trace.layout, shape).count * element}};
    // Only AllToAll reads another slot than it writes.
    if (transfer.src_slot != Transfer::kSameSlot) entry["src_slot"] = transfer.src_slot;
    if (!shape.whole_slots()) {
      entry["channel"] = transfer.step.channel;
      entry["round"] = transfer.step.round + 1;
      entry["slice"] = transfer.step.slice;
      entry["phase"] = phase_name(trace.schedule.round_phases[static_cast<std::size_t>(transfer.step.round)]);
    }
    value(entry);
  }
  close(']');
  if (!round.buffers.ranks.empty()) {
    key("buffers");
    buffers(trace, round.buffers, round.provenance);
    key("contributors");
    contributors(trace, round.provenance);
  }
  close('}');
}

void JsonTraceWriter::end(const Trace& trace) {
  const Config& config = trace.config;
  close(']');  // rounds
  if (!trace.outputs.empty()) {
    key("outputs");
    open('[');
    for (const ByteBuffer& output : trace.outputs) {
      Json row = Json::array();
      for (std::int64_t i = 0; i < element_count(output, config.dtype); ++i)
        row.push_back(element_json(read_element(output, config.dtype, i), config.dtype));
      next_item();
      value(row);
    }
    close(']');
  }
  Json sent = Json::array();
  Json received = Json::array();
  for (int rank = 0; rank < config.ranks; ++rank) {
    sent.push_back(trace.traffic.total_sent(rank));
    received.push_back(trace.traffic.total_received(rank));
  }
  key("bytes_sent");
  value(sent);
  key("bytes_received");
  value(received);
  if (trace.capture) capture(*trace.capture);
  close('}');
  out_ << "\n";
}

JsonTraceVolume json_trace_volume(const Config& config, double stop_above) {
  const Schedule schedule = make_schedule(config);
  const int slots = make_layout(config).size();
  JsonTraceVolume volume;
  // The inputs, every round and the outputs each print every element of every rank.
  volume.values = (schedule.round_count() + 2.0) * config.ranks * static_cast<double>(buffer_elements(config));
  if (volume.numbers() > stop_above) return volume;
  // A pipelined slot's set is gathered from all its pieces: past this much work (256 GPUs cut
  // into thousands of pieces) every set is counted as full instead, an upper bound.
  constexpr double kMostPieceVisits = 1 << 27;
  const double pieces = static_cast<double>(config.channels) * config.slices;
  const double sets = static_cast<double>(schedule.round_count()) * config.ranks * slots;
  if (sets * pieces > kMostPieceVisits) {
    volume.contributors = sets * config.ranks;
    return volume;
  }
  Provenance provenance = Provenance::initial(config);
  for (const Round& round : schedule.rounds) {
    provenance.apply(round);
    for (int rank = 0; rank < config.ranks; ++rank)
      for (int slot = 0; slot < slots; ++slot) volume.contributors += static_cast<double>(provenance.at(rank, slot).count());
    if (volume.numbers() > stop_above) break;
  }
  return volume;
}


}  // namespace ringviz
