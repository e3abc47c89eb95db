#include "core/kineto/kineto_trace.h"

#include <cmath>
#include <string_view>

#include "core/kineto/chrome_trace_stream.h"
#include "core/model/input_error.h"

namespace ringviz {
namespace {

using nlohmann::json;

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

const json* member(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string string_member(const json& object, const char* key) {
  const json* value = member(object, key);
  return value && value->is_string() ? value->get<std::string>() : std::string();
}

std::optional<double> number_member(const json& object, const char* key) {
  const json* value = member(object, key);
  if (!value || !value->is_number()) return std::nullopt;
  const double number = value->get<double>();
  return std::isfinite(number) ? std::optional<double>(number) : std::nullopt;
}

// An integer field, also when written as a string; a value that is neither is left out.
std::optional<std::int64_t> integer_member(const json& object, const char* key) {
  const json* value = member(object, key);
  if (!value) return std::nullopt;
  if (value->is_number_integer()) return value->get<std::int64_t>();
  if (value->is_number_unsigned()) {
    const auto unsigned_value = value->get<std::uint64_t>();
    if (unsigned_value > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<std::int64_t>(unsigned_value);
  }
  if (value->is_string()) {
    const std::string text = value->get<std::string>();
    std::int64_t parsed = 0;
    std::size_t used = 0;
    try {
      parsed = std::stoll(text, &used);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (used == text.size()) return parsed;
  }
  return std::nullopt;
}

// "[0, 1, 2]" (how PyTorch writes a group's ranks) or a JSON array of integers.
// "[3, 1, 0, 2]" (PyTorch writes the list as text) or an array: element counts, none negative.
// Empty when absent or "[]" (even). Anything else is kept as written in `unreadable`, for the
// importer to refuse.
std::vector<std::int64_t> split_sizes(const json* value, std::string& unreadable) {
  if (!value) return {};
  json parsed;
  const json* list = value;
  if (value->is_string()) {
    parsed = json::parse(value->get<std::string>(), nullptr, false);
    list = &parsed;
  }
  std::vector<std::int64_t> sizes;
  bool readable = list->is_array();
  for (std::size_t i = 0; readable && i < list->size(); ++i) {
    const json& size = (*list)[i];
    readable = size.is_number_integer() && size.get<std::int64_t>() >= 0;
    if (readable) sizes.push_back(size.get<std::int64_t>());
  }
  if (readable) return sizes;
  unreadable = value->is_string() ? value->get<std::string>() : value->dump();
  return {};
}

std::optional<std::vector<int>> rank_list(const json* value) {
  if (!value) return std::nullopt;
  json parsed;
  if (value->is_string()) {
    parsed = json::parse(value->get<std::string>(), nullptr, false);
    if (parsed.is_discarded()) return std::nullopt;
    value = &parsed;
  }
  if (!value->is_array()) return std::nullopt;
  std::vector<int> ranks;
  for (const json& rank : *value) {
    if (!rank.is_number_integer()) return std::nullopt;
    const auto number = rank.get<std::int64_t>();
    if (number < 0 || number > INT32_MAX) return std::nullopt;
    ranks.push_back(static_cast<int>(number));
  }
  return ranks;
}

std::optional<std::int64_t> product_of_first_dims(const json& args) {
  const json* dims = member(args, "Input Dims");
  if (!dims || !dims->is_array() || dims->empty() || !(*dims)[0].is_array()) return std::nullopt;
  std::int64_t product = 1;
  for (const json& dim : (*dims)[0]) {
    if (!dim.is_number_integer()) return std::nullopt;
    const auto size = dim.get<std::int64_t>();
    if (size < 0 || (size > 0 && product > INT64_MAX / size)) return std::nullopt;
    product *= size;
  }
  return product;
}

std::optional<int> small_int(std::optional<std::int64_t> value) {
  if (!value || *value < 0 || *value > INT32_MAX) return std::nullopt;
  return static_cast<int>(*value);
}

ComputeKind phase_kind(std::string_view name, bool& is_phase) {
  is_phase = true;
  if (name == "## forward ##") return ComputeKind::forward;
  if (name == "## backward ##") return ComputeKind::backward;
  if (name == "## optimizer ##" || starts_with(name, "Optimizer.step#")) return ComputeKind::optimizer;
  is_phase = false;
  return ComputeKind::kernel;
}

class KinetoSink final : public ChromeTraceSink {
 public:
  explicit KinetoSink(KinetoRankTrace& trace) : trace_(trace) {}

  void member(std::string_view key, const json& value) override {
    if (key == "distributedInfo") return distributed_info(value);
    if (key == "deviceProperties" && value.is_array() && !value.empty() && trace_.gpu.empty())
      trace_.gpu = string_member(value[0], "name");
  }

  void event(std::int64_t index, const json& event) override {
    if (!event.is_object()) return;
    const std::string name = string_member(event, "name");
    const std::string category = string_member(event, "cat");
    const std::optional<double> ts = number_member(event, "ts");
    if (!ts) return;  // metadata ("ph": "M") and flow events without a time
    const double dur = number_member(event, "dur").value_or(0);
    if (dur < 0) return;
    note_time(*ts);
    const json* args_pointer = ringviz::member(event, "args");
    const json& args = args_pointer ? *args_pointer : empty_;
    if (name == "record_param_comms") return comm_op(index, event, args, *ts, dur);
    if (category == "kernel") return kernel(index, name, args, *ts, dur);
    if (category == "cuda_runtime" || category == "cuda_driver") return launch(event, args, *ts);
    if (starts_with(name, "nccl:") && ringviz::member(args, "Input Dims")) return old_comm_op(index, event, name, args, *ts, dur);
    if (category == "user_annotation" || category == "cpu_op") phase(name, *ts, dur);
  }

 private:
  void note_time(double ts) {
    if (!trace_.any_event || ts < trace_.earliest_ts) trace_.earliest_ts = ts;
    trace_.any_event = true;
  }

  void distributed_info(const json& info) {
    if (!info.is_object()) return;
    trace_.rank = small_int(integer_member(info, "rank"));
    trace_.world_size = small_int(integer_member(info, "world_size"));
    trace_.backend = string_member(info, "backend");
    trace_.nccl_version = string_member(info, "nccl_version");
    const json* groups = ringviz::member(info, "pg_config");
    if (!groups || !groups->is_array()) return;
    for (const json& group : *groups) {
      KinetoGroupConfig config;
      config.name = string_member(group, "pg_name");
      if (config.name.empty()) {
        if (auto uid = integer_member(group, "uid")) config.name = std::to_string(*uid);
      }
      config.description = string_member(group, "pg_desc");
      config.ranks = rank_list(ringviz::member(group, "ranks")).value_or(std::vector<int>{});
      trace_.groups.push_back(std::move(config));
    }
  }

  void comm_op(std::int64_t index, const json& event, const json& args, double ts, double dur) {
    std::optional<KinetoCommOp> op = comm_op_of_args(args);
    if (!op) return;
    op->event = index;
    op->ts = ts;
    op->dur = dur;
    op->pid = integer_member(event, "pid").value_or(0);
    op->tid = integer_member(event, "tid").value_or(0);
    trace_.comm_ops.push_back(std::move(*op));
  }

  // `nccl:all_reduce` with `Input Dims` / `Input type`: traces from before record_param_comms
  // carried sizes. The element count is the first input's; the group is the whole world.
  void old_comm_op(std::int64_t index, const json& event, const std::string& name, const json& args, double ts,
                   double dur) {
    KinetoCommOp op;
    op.event = index;
    op.collective = name.substr(5);
    op.from_record_param_comms = false;
    op.sizes_from_input_dims = true;
    op.in_elements = product_of_first_dims(args);
    const json* types = ringviz::member(args, "Input type");
    if (types && types->is_array() && !types->empty() && (*types)[0].is_string()) op.dtype = (*types)[0];
    op.ts = ts;
    op.dur = dur;
    op.pid = integer_member(event, "pid").value_or(0);
    op.tid = integer_member(event, "tid").value_or(0);
    trace_.comm_ops.push_back(std::move(op));
  }

  void kernel(std::int64_t index, const std::string& name, const json& args, double ts, double dur) {
    if (!starts_with(name, "ncclKernel_") && !starts_with(name, "ncclDevKernel_")) {
      trace_.compute_kernels.push_back({ts, ts + dur});
      return;
    }
    KinetoKernel kernel;
    kernel.event = index;
    kernel.name = name;
    kernel.ts = ts;
    kernel.dur = dur;
    kernel.correlation = integer_member(args, "correlation").value_or(-1);
    const json* grid = ringviz::member(args, "grid");
    if (grid && grid->is_array() && !grid->empty() && (*grid)[0].is_number_integer())
      kernel.grid_x = small_int((*grid)[0].get<std::int64_t>());
    kernel.args = comm_op_of_args(args);
    trace_.nccl_kernels.push_back(std::move(kernel));
  }

  void launch(const json& event, const json& args, double ts) {
    const auto correlation = integer_member(args, "correlation");
    if (!correlation) return;
    trace_.launches[*correlation] = {ts, integer_member(event, "pid").value_or(0),
                                     integer_member(event, "tid").value_or(0)};
  }

  void phase(const std::string& name, double ts, double dur) {
    bool is_phase = false;
    const ComputeKind kind = phase_kind(name, is_phase);
    if (is_phase) trace_.phases.push_back({name, kind, {ts, ts + dur}});
  }

  KinetoRankTrace& trace_;
  const json empty_ = json::object();
};

}  // namespace

std::optional<KinetoCommOp> comm_op_of_args(const json& args) {
  const std::string collective = string_member(args, "Collective name");
  if (collective.empty()) return std::nullopt;
  KinetoCommOp op;
  op.collective = collective;
  op.group_name = string_member(args, "Process Group Name");
  if (op.group_name.empty()) {
    if (auto id = integer_member(args, "Process Group ID")) op.group_name = std::to_string(*id);
  }
  op.group_ranks = rank_list(member(args, "Process Group Ranks"));
  op.group_size = small_int(integer_member(args, "Group size"));
  op.in_elements = integer_member(args, "In msg nelems");
  op.out_elements = integer_member(args, "Out msg nelems");
  op.in_splits = split_sizes(member(args, "In split size"), op.unreadable_in_splits);
  op.out_splits = split_sizes(member(args, "Out split size"), op.unreadable_out_splits);
  op.dtype = string_member(args, "dtype");
  op.rank_arg = small_int(integer_member(args, "Rank"));
  op.src_rank = small_int(integer_member(args, "Src Rank"));
  op.dst_rank = small_int(integer_member(args, "Dst Rank"));
  return op;
}

KinetoRankTrace read_kineto_trace(const std::string& path) {
  KinetoRankTrace trace;
  trace.path = path;
  KinetoSink sink(trace);
  const ChromeTraceSummary summary = stream_chrome_trace(path, sink);
  if (!summary.has_trace_events)
    throw InputError(path + ": not a PyTorch profiler trace: no \"traceEvents\" array (write one with "
                     "torch.profiler.profile(...).export_chrome_trace or tensorboard_trace_handler)");
  trace.events = summary.events;
  trace.text_bytes = summary.text_bytes;
  trace.file_bytes = summary.file_bytes;
  return trace;
}

}  // namespace ringviz
