#include "core/model/config.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>
#include <fstream>
#include <sstream>

#include <sys/resource.h>
#include <unistd.h>

#include "core/model/checked_value.h"
#include "core/model/text.h"

namespace ringviz {

static_assert(spellings_are_unique(kOpNames));
static_assert(spellings_are_unique(kOrderNames));
static_assert(spellings_are_unique(kTypedInitNames));
static_assert(spellings_are_unique(kBackendChoiceNames));

namespace {

constexpr std::string_view kValuesPrefix = "values:";

// "1,2.5/3,4" -> {{1, 2.5}, {3, 4}}: rows split by '/', numbers by ','; an empty row is a GPU
// with no elements (count 0). Every number is read as an init file's are (JSON's decimals and
// nan, inf, -inf), exactly; whether it fits the dtype is check_init_values' question.
std::vector<std::vector<ElementValue>> parse_value_rows(std::string_view rows_text, std::string_view text,
                                                        std::string_view field) {
  std::vector<std::vector<ElementValue>> rows;
  const auto refuse = [&](std::string_view what) {
    throw InputError(std::string(field) + ": '" + std::string(text) + "' is not values:ROWS (" + std::string(what) +
                     "; e.g. values:1,2/3,4 for 2 GPUs with 2 elements each)");
  };
  for (std::size_t start = 0;;) {
    const std::size_t end = std::min(rows_text.find('/', start), rows_text.size());
    const std::string_view row_text = rows_text.substr(start, end - start);
    std::vector<ElementValue>& row = rows.emplace_back();
    for (std::size_t at = 0; !row_text.empty() && at <= row_text.size();) {
      const std::size_t comma = std::min(row_text.find(',', at), row_text.size());
      const std::string_view number = row_text.substr(at, comma - at);
      const WrittenNumber read = read_written_number(number);
      if (read.reading == NumberReading::beyond_double)
        refuse("'" + std::string(number) + "' is too large for a number (beyond ±1.8e308)");
      if (read.reading != NumberReading::number)
        refuse("'" + std::string(number) + "' is not a number (decimals as in JSON, or nan, inf, -inf)");
      row.push_back(read.value);
      at = comma + 1;
    }
    if (end == rows_text.size()) break;
    start = end + 1;
  }
  return rows;
}

// Config::splits against the ring: N rows of N blocks, each 0 to 2^40 elements, every row's sum
// within the count each GPU starts with, and the whole table within 2^40 elements.
std::optional<std::string> validate_splits(const Config& config) {
  if (config.splits.empty()) return std::nullopt;
  if (config.op != Op::alltoall)
    return "splits: uneven block sizes apply to alltoall, not " + std::string(op_name(config.op)) +
           "; leave --splits out";
  const std::size_t n = static_cast<std::size_t>(config.ranks);
  if (config.splits.size() != n * n)
    return "splits: " + std::to_string(config.splits.size()) + " block sizes for " + std::to_string(config.ranks) +
           " GPUs; give " + std::to_string(config.ranks) + " rows of " + std::to_string(config.ranks) +
           " (row s: what GPU s sends to GPU 0, 1, ...)";
  std::int64_t total = 0;
  for (int sender = 0; sender < config.ranks; ++sender) {
    std::int64_t row = 0;
    for (int receiver = 0; receiver < config.ranks; ++receiver) {
      const std::int64_t block = split_of(config, sender, receiver);
      if (block < 0 || block > kMaxCount)
        return "splits: GPU " + std::to_string(sender) + "'s block for GPU " + std::to_string(receiver) + " (" +
               std::to_string(block) + " elements) is out of range (0 to 2^40 elements)";
      row += block;
      total += block;
      if (row > kMaxCount || total > kMaxCount)
        return "splits: the blocks add up to more than 2^40 elements";
    }
    if (row > config.count)
      return "splits: GPU " + std::to_string(sender) + " sends " + std::to_string(row) + " elements in all, but starts with " +
             std::to_string(config.count) + " (count); give a count of at least every row's sum";
  }
  return std::nullopt;
}

}  // namespace

InitPattern parse_init(std::string_view text, std::string_view field) {
  InitPattern init;
  if (text.rfind(kValuesPrefix, 0) == 0) {
    init.kind = InitKind::values;
    init.values = parse_value_rows(text.substr(kValuesPrefix.size()), text, field);
    return init;
  }
  // The patterns without an argument are typed exactly as their names.
  for (InitKind plain : {InitKind::seed, InitKind::rank, InitKind::index})
    if (text == enum_name(kTypedInitNames, plain)) {
      init.kind = plain;
      return init;
    }
  if (text.rfind("random", 0) == 0) {
    init.kind = InitKind::random;
    if (text == "random") return init;
    const std::string_view digits = text.substr(text.find(':') + 1);
    const auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), init.random_seed);
    if (text[6] != ':' || digits.empty() || error != std::errc() ||
        end != digits.data() + digits.size())
      throw InputError(std::string(field) + ": '" + std::string(text) +
                       "' is not random:SEED with SEED a non-negative integer");
    return init;
  }
  if (text.rfind("file:", 0) == 0 && text.size() > 5) {
    init.kind = InitKind::file;
    init.path = std::string(text.substr(5));
    return init;
  }
  reject_unknown_value(field, text, enum_names(kTypedInitNames));
}

void check_init_values(const InitPattern& init, DType dtype, std::string_view field) {
  if (init.kind != InitKind::values) return;
  for (std::size_t rank = 0; rank < init.values.size(); ++rank)
    for (std::size_t index = 0; index < init.values[rank].size(); ++index)
      if (!stored_as(init.values[rank][index], dtype))
        throw InputError(std::string(field) + ": values: GPU " + std::to_string(rank) + ", element " +
                         std::to_string(index) + ": " + written_text(init.values[rank][index]) + " does not fit " +
                         std::string(dtype_name(dtype)) + " (" + type_range(dtype) + ")");
}

std::string InitPattern::spec() const {
  switch (kind) {
    case InitKind::random: return "random:" + std::to_string(random_seed);
    case InitKind::file: return "file:" + path;
    case InitKind::values: return "values";
    default: return std::string(enum_name(kTypedInitNames, kind));
  }
}

std::optional<std::string> validate_fields(const Config& config) {
  if (config.ranks < 1 || config.ranks > kMaxRanks)
    return "gpus: " + std::to_string(config.ranks) + " is out of range (1 to " +
           std::to_string(kMaxRanks) + ")";
  if (config.count < 0 || config.count > kMaxCount)
    return "count: " + std::to_string(config.count) + " is out of range (0 to 2^40 elements)";
  if (config.channels < 1 || config.channels > kMaxChannels)
    return "channels: " + std::to_string(config.channels) + " is out of range (1 to " +
           std::to_string(kMaxChannels) + ")";
  if (config.slices < 1 || config.slices > kMaxSlices)
    return "slices: " + std::to_string(config.slices) + " is out of range (1 to " +
           std::to_string(kMaxSlices) + ")";
  if (config.root < 0 || config.root >= config.ranks)
    return "root: GPU " + std::to_string(config.root) + " is not in a ring of " + std::to_string(config.ranks) +
           " GPUs; give 0 to " + std::to_string(config.ranks - 1);
  if (config.root != 0 && config.op != Op::broadcast)
    return "root: GPU " + std::to_string(config.root) + " as the source, but " + std::string(op_name(config.op)) +
           " has none; leave --root out (it applies to broadcast)";
  // AllGather has always taken --reduce and ignored it; the newer copy-only ops say so instead.
  if ((config.op == Op::broadcast || config.op == Op::alltoall) && config.reduce != ReduceOp::sum)
    return "reduce: " + std::string(reduce_op_name(config.reduce)) + " combines values, but " +
           std::string(op_name(config.op)) + " only copies them; leave --reduce out (it applies to reducescatter " +
           "and allreduce)";
  if (auto problem = validate_splits(config)) return problem;
  if (config.init.kind == InitKind::values) {
    if (config.init.values.size() != static_cast<std::size_t>(config.ranks))
      return "init: the value table has " + std::to_string(config.init.values.size()) +
             " rows, expected one per GPU (" + std::to_string(config.ranks) + ")";
    for (std::size_t r = 0; r < config.init.values.size(); ++r)
      if (config.init.values[r].size() != static_cast<std::size_t>(config.count))
        return "init: row " + std::to_string(r) + " of the value table has " +
               std::to_string(config.init.values[r].size()) + " values, expected count (" +
               std::to_string(config.count) + ")";
  }
  return std::nullopt;
}

std::int64_t split_row_sum(const Config& config, int sender) {
  std::int64_t sum = 0;
  for (int receiver = 0; receiver < config.ranks; ++receiver) sum += split_of(config, sender, receiver);
  return sum;
}

std::int64_t largest_split_row(const Config& config) {
  std::int64_t largest = 0;
  for (int sender = 0; sender < config.ranks; ++sender) largest = std::max(largest, split_row_sum(config, sender));
  return largest;
}

std::string splits_text(const Config& config, std::string_view row_separator, int most_rows) {
  std::string text;
  for (int sender = 0; sender < std::min(config.ranks, most_rows); ++sender) {
    if (sender > 0) text += row_separator;
    for (int receiver = 0; receiver < config.ranks; ++receiver)
      text += (receiver > 0 ? "," : "") + std::to_string(split_of(config, sender, receiver));
  }
  if (config.ranks > most_rows) text += std::string(row_separator) + "\u2026";
  return text;
}

std::int64_t buffer_elements(const Config& config) {
  if (config.op == Op::allgather) return config.count * config.ranks;
  // Uneven AllToAll: every (sender, receiver) block (layout.h).
  if (uneven_all_to_all(config)) {
    std::int64_t total = 0;
    for (std::int64_t block : config.splits) total += block;
    return total;
  }
  // AllToAll's N equal blocks (layout.h): the count % N left over take no part.
  if (config.op == Op::alltoall) return config.count / config.ranks * config.ranks;
  return config.count;
}

std::int64_t input_elements_taken(const Config& config, int rank) {
  if (uneven_all_to_all(config)) return split_row_sum(config, rank);
  return config.op == Op::alltoall ? buffer_elements(config) : config.count;
}

std::uint64_t working_set_bytes(const Config& config) {
  return static_cast<std::uint64_t>(buffer_elements(config)) * config.ranks *
         dtype_size(config.dtype);
}

namespace {

// A field of /proc/self/status or /proc/meminfo, in bytes (both count in kB).
std::optional<std::uint64_t> proc_field_bytes(const char* file, std::string_view name) {
  // Line by line: not every line is "key value kB" ("Name:\tringviz", "HugePages_Total: 0").
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, name.size(), name) != 0) continue;
    std::istringstream fields(line.substr(name.size()));
    std::uint64_t kib = 0;
    if (fields >> kib) return kib * 1024;
    return std::nullopt;
  }
  return std::nullopt;
}

// What the process may still map under `resource` (ulimit -v, ulimit -d), given what it already
// uses; nothing when there is no limit.
std::optional<std::uint64_t> limit_headroom(int resource, const char* used_field) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  const std::uint64_t used = proc_field_bytes("/proc/self/status", used_field).value_or(0);
  return limit.rlim_cur > used ? limit.rlim_cur - used : 0;
}

}  // namespace

MemoryHeadroom memory_headroom() {
  // MemAvailable counts reclaimable cache too, which is what an allocation can really get.
  MemoryHeadroom headroom{UINT64_MAX, "of memory is available"};
  if (const auto available = proc_field_bytes("/proc/meminfo", "MemAvailable:")) {
    headroom.bytes = *available;
  } else {
    const long pages = sysconf(_SC_AVPHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_size > 0) headroom.bytes = static_cast<std::uint64_t>(pages) * page_size;
  }
  // A process limit refuses an allocation however much memory the machine has free.
  const auto tighter = [&](std::optional<std::uint64_t> bytes, const char* source) {
    if (bytes && *bytes < headroom.bytes) headroom = {*bytes, source};
  };
  // Threads are not counted: where the limit refuses one its stack, the pool runs with fewer,
  // and malloc shares an arena it cannot reserve.
  tighter(limit_headroom(RLIMIT_AS, "VmSize:"),
          "of address space is left under this process's limit (ulimit -v)");
  tighter(limit_headroom(RLIMIT_DATA, "VmData:"),
          "of data segment is left under this process's limit (ulimit -d)");
  return headroom;
}

std::uint64_t available_host_memory_bytes() { return memory_headroom().bytes; }

void check_fits_in_memory(const Config& config, std::uint64_t extra_copies) {
  // Guard the multiplication: 256 ranks x 2^40 elements x 8 bytes overflows 64 bits.
  const long double needed = static_cast<long double>(buffer_elements(config)) * config.ranks *
                             dtype_size(config.dtype) * (1 + extra_copies);
  const MemoryHeadroom headroom = memory_headroom();
  if (needed > static_cast<long double>(headroom.bytes)) {
    std::ostringstream message;
    message << "count: " << config.count << " elements of " << dtype_name(config.dtype)
            << " on " << config.ranks << " GPUs need "
            << format_size_for_message(static_cast<double>(needed)) << " of buffers but only "
            << format_size_for_message(static_cast<double>(headroom.bytes)) << " " << headroom.source
            << "; choose a smaller --count or fewer --gpus";
    throw InputError(message.str());
  }
}

}  // namespace ringviz
