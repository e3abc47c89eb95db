#include "core/trace/trace_read.h"

#include <climits>
#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "core/engine/provenance.h"
#include "core/engine/traffic.h"
#include "core/input/json_input.h"
#include "core/input/document_reader.h"
#include "core/input/initial_values.h"
#include "core/model/input_error.h"
#include "core/model/text.h"
#include "core/schedule/pipeline.h"
#include "core/algorithms/registry.h"
#include "core/trace/trace_json.h"

namespace ringviz {

namespace {

using nlohmann::json;

std::string transfer_text(const Transfer& transfer) {
  const std::string slots = transfer.source_slot() == transfer.slot
                                ? std::to_string(transfer.slot)
                                : std::to_string(transfer.source_slot()) + " -> " + std::to_string(transfer.slot);
  return std::to_string(transfer.src) + " -> " + std::to_string(transfer.dst) + " slot " + slots + " " +
         std::string(transfer_kind_name(transfer.kind));
}

Config read_config(const DocumentReader& reader, const json& root, std::string& backend) {
  const json& node = reader.object(reader.member(root, "", "config"), "/config");
  auto field = [&](const char* key) -> const json& { return reader.member(node, "/config", key); };
  auto at = [](const char* key) { return std::string("/config/") + key; };
  Config config;
  config.op = reader.named(field("op"), at("op"), [](const std::string& name) { return parse_op(name); });
  config.algorithm = reader.named(field("algorithm"), at("algorithm"),
                                  [](const std::string& name) { return parse_algorithm(name); });
  config.order = reader.named(field("order"), at("order"), [](const std::string& name) { return parse_order(name); });
  config.ranks = static_cast<int>(reader.integer(field("ranks"), at("ranks"), 1, kMaxRanks));
  config.count = reader.integer(field("count"), at("count"), 0, kMaxCount);
  config.dtype = reader.named(field("dtype"), at("dtype"), [](const std::string& name) { return parse_dtype_or_throw(name); });
  config.reduce = reader.named(field("reduce"), at("reduce"),
                               [](const std::string& name) { return parse_reduce_or_throw(name); });
  // "values": the GUI's table, never typed; its values are the document's `initial`.
  config.init = reader.named(field("init"), at("init"), [](const std::string& name) {
    return name == "values" ? InitPattern{InitKind::values, 0, {}, {}} : parse_init(name);
  });
  backend = reader.text(field("backend"), at("backend"));
  // Present only in pipelined documents (docs/architecture.md, "Pipelined schedules").
  if (const auto channels = node.find("channels"); channels != node.end())
    config.channels = static_cast<int>(reader.integer(*channels, at("channels"), 1, kMaxChannels));
  if (const auto slices = node.find("slices"); slices != node.end())
    config.slices = static_cast<int>(reader.integer(*slices, at("slices"), 1, kMaxSlices));
  // A broadcast's source; documents written before it was a field broadcast from GPU 0.
  if (const auto root_gpu = node.find("root"); root_gpu != node.end())
    config.root = static_cast<int>(reader.integer(*root_gpu, at("root"), 0, config.ranks - 1));
  // An uneven AllToAll's block sizes: N rows of N, row s what GPU s sends.
  if (const auto splits = node.find("splits"); splits != node.end()) {
    const std::size_t n = static_cast<std::size_t>(config.ranks);
    const json& rows = reader.array(*splits, at("splits"), n);
    for (std::size_t sender = 0; sender < n; ++sender) {
      const std::string row_at = at("splits") + "/" + std::to_string(sender);
      const json& row = reader.array(rows[sender], row_at, n);
      for (std::size_t receiver = 0; receiver < n; ++receiver)
        config.splits.push_back(reader.integer(row[receiver], row_at + "/" + std::to_string(receiver), 0, kMaxCount));
    }
  }
  Config checked = config;
  if (checked.init.kind == InitKind::values) checked.init.kind = InitKind::seed;
  if (auto problem = validate(checked)) reader.fail("/config", *problem);
  return config;
}

void check_slots(const DocumentReader& reader, const json& root, const SlotLayout& layout) {
  const json& slots = reader.array(reader.member(root, "", "slots"), "/slots", static_cast<std::size_t>(layout.size()));
  for (int slot = 0; slot < layout.size(); ++slot) {
    const std::string pointer = "/slots/" + std::to_string(slot);
    const json& node = reader.object(slots[static_cast<std::size_t>(slot)], pointer);
    const std::int64_t offset = reader.integer(reader.member(node, pointer, "offset"), pointer + "/offset", 0, kMaxCount);
    const std::int64_t count = reader.integer(reader.member(node, pointer, "count"), pointer + "/count", 0, kMaxCount);
    if (offset != layout[slot].offset || count != layout[slot].count)
      reader.fail(pointer, "{offset " + std::to_string(offset) + ", count " + std::to_string(count) +
                               "} does not match the config's slot (offset " + std::to_string(layout[slot].offset) +
                               ", count " + std::to_string(layout[slot].count) + ")");
  }
}

// Every rank's working buffer; each slot's elements must be null exactly where `provenance`
// says nothing has reached it.
BufferState read_buffers(const DocumentReader& reader, const json& node, const std::string& pointer,
                         const Config& config, const SlotLayout& layout, const Provenance& provenance) {
  const PipelineShape shape = pipeline_shape(config);
  const auto ranks = static_cast<std::size_t>(config.ranks);
  reader.array(node, pointer, ranks);
  BufferState state = BufferState::zeros(config.dtype, config.ranks, layout.elements_per_rank);
  for (int rank = 0; rank < config.ranks; ++rank) {
    const std::string row_pointer = pointer + "/" + std::to_string(rank);
    const json& row = reader.array(node[static_cast<std::size_t>(rank)], row_pointer,
                                   static_cast<std::size_t>(layout.elements_per_rank));
    for (int slot = 0; slot < layout.size(); ++slot)
      for (int piece = 0; piece < shape.pieces_per_slot(); ++piece) {
        const bool reached = provenance.at(rank, slot, piece).any();
        const Slot span = piece_span(layout[slot], shape, piece);
        for (std::int64_t i = span.offset; i < span.offset + span.count; ++i) {
          const std::string element_pointer = row_pointer + "/" + std::to_string(i);
          bool empty = false;
          const ElementValue value = reader.element(row[static_cast<std::size_t>(i)], element_pointer, config.dtype, empty);
          if (empty == reached)
            reader.fail(element_pointer, reached ? "null, but slot " + std::to_string(slot) + " holds data here"
                                                 : "a value, but nothing has reached slot " + std::to_string(slot) + " here (null expected)");
          if (!empty) write_element(state, rank, i, value);
        }
      }
  }
  return state;
}

void check_contributors(const DocumentReader& reader, const json& node, const std::string& pointer,
                        const Config& config, const Provenance& provenance) {
  const auto ranks = static_cast<std::size_t>(config.ranks);
  reader.array(node, pointer, ranks);
  for (int rank = 0; rank < config.ranks; ++rank) {
    const std::string row_pointer = pointer + "/" + std::to_string(rank);
    const json& row = reader.array(node[static_cast<std::size_t>(rank)], row_pointer,
                                   static_cast<std::size_t>(slot_count(config)));
    for (int slot = 0; slot < slot_count(config); ++slot) {
      const std::string set_pointer = row_pointer + "/" + std::to_string(slot);
      const json& set = row[static_cast<std::size_t>(slot)];
      if (!set.is_array()) reader.fail(set_pointer, "expected an array of ranks, found " + kind_of(set));
      RankSet found;
      for (std::size_t i = 0; i < set.size(); ++i)
        found.set(static_cast<std::size_t>(reader.integer(set[i], set_pointer + "/" + std::to_string(i), 0, config.ranks - 1)));
      if (found != provenance.at(rank, slot))
        reader.fail(set_pointer, "GPU " + std::to_string(rank) + " slot " + std::to_string(slot) +
                                     " lists other contributors than the schedule folds in");
    }
  }
}

// A pipelined transfer's step: channel, the source article's round (1-based), slice and that round's
// phase, as the schedule places it in this wave.
void check_step(const DocumentReader& reader, const json& entry, const std::string& item, int number, std::size_t index,
                const Transfer& planned, const Config& config, const std::vector<Phase>& round_phases) {
  const int channel = static_cast<int>(
      reader.integer(reader.member(entry, item, "channel"), item + "/channel", 0,
                     pipeline_shape(config).channels - 1));
  const int round = static_cast<int>(reader.integer(reader.member(entry, item, "round"), item + "/round", 1, INT_MAX));
  const int slice = static_cast<int>(
      reader.integer(reader.member(entry, item, "slice"), item + "/slice", 0, config.slices - 1));
  const Phase phase = reader.named(reader.member(entry, item, "phase"), item + "/phase",
                                   [](const std::string& name) { return parse_enum(kPhaseNames, name, "phase"); });
  const PipelineStep& step = planned.step;
  if (channel != step.channel || round != step.round + 1 || slice != step.slice)
    reader.fail(item, "wave " + std::to_string(number) + " transfer " + std::to_string(index + 1) + " is channel " +
                          std::to_string(channel) + " round " + std::to_string(round) + " slice " +
                          std::to_string(slice) + ", but the schedule has channel " + std::to_string(step.channel) +
                          " round " + std::to_string(step.round + 1) + " slice " + std::to_string(step.slice));
  const Phase expected = round_phases[static_cast<std::size_t>(step.round)];
  if (phase != expected)
    reader.fail(item + "/phase", "round " + std::to_string(round) + " is " + std::string(phase_name(expected)) +
                                     ", not " + std::string(phase_name(phase)));
}

void check_transfers(const DocumentReader& reader, const json& node, const std::string& pointer, int number,
                     const Round& expected, std::int64_t element_bytes, const SlotLayout& layout,
                     const Config& config, const std::vector<Phase>& round_phases) {
  if (!node.is_array()) reader.fail(pointer, "expected an array of transfers, found " + kind_of(node));
  const std::string context = " (a document from another version, or edited by hand)";
  for (std::size_t i = 0; i < std::max(node.size(), expected.transfers.size()); ++i) {
    const std::string item = pointer + "/" + std::to_string(i);
    if (i >= node.size())
      reader.fail(pointer, "round " + std::to_string(number) + " lists " + std::to_string(node.size()) +
                               " transfers, but the " + std::string(op_name(config.op)) + " " +
                               std::string(algorithm_name(config.algorithm)) + " schedule has " +
                               std::to_string(expected.transfers.size()) + context);
    const json& entry = reader.object(node[i], item);
    Transfer transfer;
    const int last = config.ranks - 1;
    transfer.src = static_cast<int>(reader.integer(reader.member(entry, item, "src"), item + "/src", 0, last));
    transfer.dst = static_cast<int>(reader.integer(reader.member(entry, item, "dst"), item + "/dst", 0, last));
    const int last_slot = slot_count(config) - 1;
    transfer.slot = static_cast<int>(reader.integer(reader.member(entry, item, "slot"), item + "/slot", 0, last_slot));
    // Optional: present only where the sender reads another slot than the receiver writes (AllToAll).
    if (entry.contains("src_slot"))
      transfer.src_slot =
          static_cast<int>(reader.integer(entry.at("src_slot"), item + "/src_slot", 0, last_slot));
    transfer.kind = reader.named(reader.member(entry, item, "kind"), item + "/kind",
                                 [](const std::string& name) { return parse_enum(kTransferKindNames, name, "kind"); });
    const std::int64_t bytes = reader.integer(reader.member(entry, item, "bytes"), item + "/bytes", 0, INT64_MAX);
    if (i >= expected.transfers.size())
      reader.fail(item, "round " + std::to_string(number) + " has more transfers than the " +
                            std::string(op_name(config.op)) + " " + std::string(algorithm_name(config.algorithm)) +
                            " schedule's " + std::to_string(expected.transfers.size()) + context);
    const Transfer& planned = expected.transfers[i];
    if (transfer.src != planned.src || transfer.dst != planned.dst || transfer.slot != planned.slot ||
        transfer.source_slot() != planned.source_slot() || transfer.kind != planned.kind)
      reader.fail(item, "round " + std::to_string(number) + " transfer " + std::to_string(i + 1) + " is " +
                            transfer_text(transfer) + ", but the schedule has " + transfer_text(planned) + context);
    const PipelineShape shape = pipeline_shape(config);
    if (!shape.whole_slots()) check_step(reader, entry, item, number, i, planned, config, round_phases);
    const std::int64_t moved = transfer_span(planned, layout, shape).count * element_bytes;
    if (bytes != moved)
      reader.fail(item + "/bytes", std::to_string(bytes) + " bytes, but " +
                                       (shape.whole_slots() ? "slot " + std::to_string(transfer.slot) + " holds "
                                                          : std::string("its piece holds ")) +
                                       std::to_string(moved));
  }
}

CaptureSpan read_spans(const DocumentReader& reader, const json& node, const std::string& pointer) {
  reader.object(node, pointer);
  auto time = [&](const char* key) {
    const double value = reader.real(reader.member(node, pointer, key), pointer + "/" + key);
    if (!std::isfinite(value)) reader.fail(pointer + "/" + key, "expected a finite time");
    return value;
  };
  auto bytes = [&](const char* key) {
    return reader.integer(reader.member(node, pointer, key), pointer + "/" + key, 0, INT64_MAX);
  };
  CaptureSpan spans{time("start_us"), time("posted_us"), time("arrived_us"), time("end_us"), time("delay_us"),
                  bytes("bytes_sent"), bytes("bytes_received")};
  if (!(spans.start_us <= spans.posted_us && spans.posted_us <= spans.arrived_us && spans.arrived_us <= spans.end_us))
    reader.fail(pointer, "the times must not decrease (start_us <= posted_us <= arrived_us <= end_us)");
  if (spans.delay_us < 0) reader.fail(pointer + "/delay_us", "expected a delay of 0 or more");
  return spans;
}

CaptureRecord read_capture(const DocumentReader& reader, const json& node, const Config& config, int round_count) {
  const std::string at = "/capture";
  reader.object(node, at);
  CaptureRecord capture;
  capture.transport = reader.text(reader.member(node, at, "transport"), at + "/transport");
  capture.command = reader.text(reader.member(node, at, "command"), at + "/command");
  capture.snapshot = reader.named(reader.member(node, at, "snapshot"), at + "/snapshot",
                                  [](const std::string& name) { return parse_snapshot_mode(name); });
  if (const auto clock = node.find("clock"); clock != node.end()) capture.clock = reader.text(*clock, at + "/clock");
  const json& delay = reader.member(node, at, "delay");
  if (!delay.is_null()) {
    reader.object(delay, at + "/delay");
    const int rank = static_cast<int>(reader.integer(reader.member(delay, at + "/delay", "rank"), at + "/delay/rank", 0, config.ranks - 1));
    // Whole microseconds, as --delay takes them; written 2000 or 2000.0 alike.
    const double us = reader.real(reader.member(delay, at + "/delay", "us"), at + "/delay/us");
    if (!(us >= 0 && us < 0x1p62) || std::floor(us) != us)
      reader.fail(at + "/delay/us", "expected whole microseconds, 0 or more");
    capture.delay = CaptureDelay{rank, static_cast<std::int64_t>(us)};
  }
  const auto ranks = static_cast<std::size_t>(config.ranks);
  const json& rank_list = reader.array(reader.member(node, at, "ranks"), at + "/ranks", ranks);
  for (int rank = 0; rank < config.ranks; ++rank) {
    const std::string item = at + "/ranks/" + std::to_string(rank);
    const json& entry = reader.object(rank_list[static_cast<std::size_t>(rank)], item);
    CaptureRank captured;
    captured.rank = static_cast<int>(reader.integer(reader.member(entry, item, "rank"), item + "/rank", rank, rank));
    captured.host = reader.text(reader.member(entry, item, "host"), item + "/host");
    const json& device = reader.member(entry, item, "device");
    captured.device = device.is_null() ? -1 : static_cast<int>(reader.integer(device, item + "/device", 0, 1 << 16));
    captured.clock_offset_us = reader.real(reader.member(entry, item, "clock_offset_us"), item + "/clock_offset_us");
    captured.clock_error_us = reader.real(reader.member(entry, item, "clock_error_us"), item + "/clock_error_us");
    capture.ranks.push_back(std::move(captured));
  }
  const json& rounds = reader.array(reader.member(node, at, "rounds"), at + "/rounds", static_cast<std::size_t>(round_count));
  for (int round = 0; round < round_count; ++round) {
    const std::string item = at + "/rounds/" + std::to_string(round);
    const json& entry = reader.object(rounds[static_cast<std::size_t>(round)], item);
    reader.integer(reader.member(entry, item, "round"), item + "/round", round + 1, round + 1);
    const json& spans = reader.array(reader.member(entry, item, "ranks"), item + "/ranks", ranks);
    std::vector<CaptureSpan>& row = capture.rounds.emplace_back();
    for (int rank = 0; rank < config.ranks; ++rank)
      row.push_back(read_spans(reader, spans[static_cast<std::size_t>(rank)], item + "/ranks/" + std::to_string(rank)));
  }
  return capture;
}

// The "pipeline" summary a pipelined document carries must agree with its config.
void check_pipeline(const DocumentReader& reader, const json& root, const Schedule& schedule) {
  const json& node = reader.object(reader.member(root, "", "pipeline"), "/pipeline");
  const auto expect = [&](const char* key, int value) {
    const std::string at = std::string("/pipeline/") + key;
    reader.integer(reader.member(node, "/pipeline", key), at, value, value);
  };
  expect("channels", schedule.channels);
  expect("slices", schedule.slices);
  expect("rounds", lock_step_round_count(schedule));
  expect("waves", schedule.round_count());
}

std::int64_t output_elements(const Config& config, const SlotLayout& layout, const Schedule& schedule, int rank) {
  if (uneven_all_to_all(config)) {  // its column: what every GPU sent it
    std::int64_t received = 0;
    for (int sender = 0; sender < config.ranks; ++sender) received += split_of(config, sender, rank);
    return received;
  }
  switch (config.op) {
    case Op::allgather:
    case Op::alltoall: return layout.elements_per_rank;  // AllToAll: its N blocks, the left over aside
    case Op::allreduce:
    case Op::broadcast:
    case Op::sendrecv: return config.count;
    case Op::reducescatter: break;
  }
  const int owned = config.ranks == 1 ? 0 : schedule.owned_slot[static_cast<std::size_t>(rank)];
  return layout[owned].count;
}

// The inputs a document recorded, as the value table a Session re-executes them from: the
// replay then needs no init file (docs/architecture.md, "Replaying a recorded run").
InitPattern inputs_as_values(const Config& config, const SlotLayout& layout, const BufferState& initial) {
  InitPattern pattern{InitKind::values, 0, {}, {}};
  for (int rank = 0; rank < config.ranks; ++rank) {
    const std::int64_t base = input_offset(config, layout, rank);
    std::vector<ElementValue>& row = pattern.values.emplace_back();
    // AllToAll's left-over elements never reached the buffer: zero stands in for them, unread.
    for (std::int64_t i = 0; i < config.count; ++i)
      row.push_back(i < input_elements_taken(config, rank) ? read_element(initial, rank, base + i)
                                                     : ElementValue{!is_floating(config.dtype), 0, 0});
  }
  return pattern;
}

}  // namespace

int host_count(const CaptureRecord& capture) {
  std::set<std::string> hosts;
  for (const CaptureRank& rank : capture.ranks) hosts.insert(rank.host);
  return static_cast<int>(hosts.size());
}

bool RecordedRun::every_round_timed() const {
  for (const RecordedRound& round : rounds)
    if (!round.time_us) return false;
  return !rounds.empty();
}

RecordedRun parse_recorded_run(std::string_view text, std::string_view source) {
  const DocumentReader reader(text, source);
  const json& root = reader.object(reader.document(), "");
  const json& schema = reader.member(root, "", "schema");
  if (!schema.is_string() || schema.get_ref<const std::string&>() != kTraceSchema)
    reader.fail("/schema", std::string("expected \"") + kTraceSchema + "\", found " + kind_of(schema));
  RecordedRun run;
  run.config = read_config(reader, root, run.backend);
  const Config& config = run.config;
  check_fits_in_memory(config, 2);
  run.layout = make_layout(config);
  check_slots(reader, root, run.layout);
  const Schedule schedule = make_schedule(config);
  if (schedule.channels > 1 || schedule.slices > 1) check_pipeline(reader, root, schedule);
  Provenance provenance = Provenance::initial(config);
  if (const auto initial = root.find("initial"); initial != root.end())
    run.initial = read_buffers(reader, *initial, "/initial", config, run.layout, provenance);
  run.init_spec = run.config.init.spec();
  const bool from_table = config.init.kind == InitKind::values || config.init.kind == InitKind::file;
  if (from_table && run.initial) run.config.init = inputs_as_values(config, run.layout, *run.initial);
  if (config.init.kind == InitKind::values && !run.initial)
    reader.fail("/config/init", "\"values\" needs the document's \"initial\" buffers, which it does not have");

  const json& rounds = reader.array(reader.member(root, "", "rounds"), "/rounds",
                                    static_cast<std::size_t>(schedule.round_count()));
  const auto element_bytes = static_cast<std::int64_t>(dtype_size(config.dtype));
  for (int index = 0; index < schedule.round_count(); ++index) {
    const Round& expected = schedule.rounds[static_cast<std::size_t>(index)];
    const std::string at = "/rounds/" + std::to_string(index);
    const json& node = reader.object(rounds[static_cast<std::size_t>(index)], at);
    reader.integer(reader.member(node, at, "round"), at + "/round", index + 1, index + 1);
    RecordedRound& round = run.rounds.emplace_back();
    round.phase = reader.named(reader.member(node, at, "phase"), at + "/phase",
                               [](const std::string& name) { return parse_enum(kPhaseNames, name, "phase"); });
    if (round.phase != expected.phase)
      reader.fail(at + "/phase", "round " + std::to_string(index + 1) + " is " + std::string(phase_name(round.phase)) +
                                     ", but the schedule's is " + std::string(phase_name(expected.phase)));
    if (const auto time = node.find("time_us"); time != node.end()) {
      round.time_us = reader.real(*time, at + "/time_us");
      if (!(*round.time_us >= 0) || !std::isfinite(*round.time_us)) reader.fail(at + "/time_us", "expected a time of 0 or more");
    }
    check_transfers(reader, reader.member(node, at, "transfers"), at + "/transfers", index + 1, expected,
                    element_bytes, run.layout, config, schedule.round_phases);
    provenance.apply(expected);
    const auto buffers = node.find("buffers");
    const auto contributors = node.find("contributors");
    if ((buffers == node.end()) != (contributors == node.end()))
      reader.fail(at, "\"buffers\" and \"contributors\" come together: one is missing");
    if (buffers != node.end()) {
      round.buffers = read_buffers(reader, *buffers, at + "/buffers", config, run.layout, provenance);
      check_contributors(reader, *contributors, at + "/contributors", config, provenance);
    }
  }

  if (const auto outputs = root.find("outputs"); outputs != root.end()) {
    reader.array(*outputs, "/outputs", static_cast<std::size_t>(config.ranks));
    std::vector<ByteBuffer>& rows = run.outputs.emplace();
    for (int rank = 0; rank < config.ranks; ++rank) {
      const std::string at = "/outputs/" + std::to_string(rank);
      const std::int64_t size = output_elements(config, run.layout, schedule, rank);
      const json& row = reader.array((*outputs)[static_cast<std::size_t>(rank)], at, static_cast<std::size_t>(size));
      BufferState one = BufferState::zeros(config.dtype, 1, size);
      for (std::int64_t i = 0; i < size; ++i) {
        bool empty = false;
        const ElementValue value = reader.element(row[static_cast<std::size_t>(i)], at + "/" + std::to_string(i), config.dtype, empty);
        if (empty) reader.fail(at + "/" + std::to_string(i), "an output element cannot be null");
        write_element(one, 0, i, value);
      }
      rows.push_back(std::move(one.ranks.front()));
    }
  }
  // The totals follow from the schedule: a document that disagrees was edited or written by
  // another program.
  const Traffic traffic = compute_traffic(schedule, run.layout, config.dtype, config.ranks);
  for (const bool sent : {true, false}) {
    const char* key = sent ? "bytes_sent" : "bytes_received";
    const auto totals = root.find(key);
    if (totals == root.end()) continue;
    const std::string at = std::string("/") + key;
    reader.array(*totals, at, static_cast<std::size_t>(config.ranks));
    for (int rank = 0; rank < config.ranks; ++rank) {
      const std::int64_t expected = sent ? traffic.total_sent(rank) : traffic.total_received(rank);
      const std::string element = at + "/" + std::to_string(rank);
      if (reader.integer((*totals)[static_cast<std::size_t>(rank)], element, 0, INT64_MAX) != expected)
        reader.fail(element, "expected " + std::to_string(expected) + ", the bytes the schedule moves for GPU " +
                                 std::to_string(rank));
    }
  }
  if (const auto capture = root.find("capture"); capture != root.end())
    run.capture = read_capture(reader, *capture, config, schedule.round_count());
  return run;
}

RecordedRun read_recorded_run(const std::string& path) {
  return parse_recorded_run(read_input_text(path, "trace file", kMaxTraceFileBytes), path);
}

}  // namespace ringviz
