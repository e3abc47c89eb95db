#include "app/cli/config_flags.h"

#include <cctype>
#include <limits>

namespace ringviz::cli {

void add_config_flags(CLI::App& parser, ConfigFlags& flags) {
  parser.add_option("--op", flags.op, "allgather | reducescatter | allreduce")->capture_default_str();
  parser.add_option("--algo", flags.algorithm, "ring | naive | direct | rhd | tree | tree-pipelined")->capture_default_str();
  parser.add_option("--order", flags.order,
                    "seed: the article's tables (rank r sends slot r-t); nccl: rank r ends "
                    "owning slot r, as NCCL does")
      ->capture_default_str();
  parser.add_option("--gpus,-n", flags.gpus, "number of GPUs in the ring, 1-256")->capture_default_str();
  parser.add_option("--count,-c", flags.count, "elements each GPU starts with")->capture_default_str();
  parser.add_option("--dtype,-d", flags.dtype, "f32 | f64 | f16 | bf16 | i32 | i64")->capture_default_str();
  parser.add_option("--reduce,-o", flags.reduce, "sum | prod | max | min | avg")->capture_default_str();
  parser.add_option("--init", flags.init, "seed | rank | index | random:SEED | file:PATH")
      ->capture_default_str();
  parser.add_option("--backend", flags.backend, "auto | cpu | cuda")->capture_default_str();
  parser.add_option("--lang", flags.lang, "en | zh")->capture_default_str();
}

std::int64_t parse_whole_number(const std::string& text, const std::string& flag,
                                bool allow_suffix) {
  const auto fail = [&](const std::string& why) -> std::int64_t {
    throw InputError(flag + ": '" + text + "' " + why);
  };
  std::size_t digits = 0;
  const bool negative = !text.empty() && text[0] == '-';
  std::size_t start = negative ? 1 : 0;
  while (start + digits < text.size() && std::isdigit(static_cast<unsigned char>(text[start + digits])))
    ++digits;
  if (digits == 0) return fail("is not a whole number");
  std::int64_t multiplier = 1;
  const std::string suffix = text.substr(start + digits);
  if (!suffix.empty()) {
    if (!allow_suffix) return fail("is not a whole number");
    if (suffix == "K" || suffix == "k") multiplier = std::int64_t{1} << 10;
    else if (suffix == "M" || suffix == "m") multiplier = std::int64_t{1} << 20;
    else if (suffix == "G" || suffix == "g") multiplier = std::int64_t{1} << 30;
    else return fail("has an unknown suffix (use K, M or G)");
  }
  if (negative) return fail("must not be negative");
  std::int64_t value = 0;
  for (std::size_t i = start; i < start + digits; ++i) {
    if (value > (std::numeric_limits<std::int64_t>::max() - 9) / 10) return fail("is too large");
    value = value * 10 + (text[i] - '0');
  }
  if (value > std::numeric_limits<std::int64_t>::max() / multiplier) return fail("is too large");
  return value * multiplier;
}

Config config_from_flags(const ConfigFlags& flags) {
  Config config;
  config.op = parse_op(flags.op, "--op");
  config.algorithm = parse_algorithm(flags.algorithm, "--algo");
  config.order = parse_order(flags.order, "--order");
  const std::int64_t gpus = parse_whole_number(flags.gpus, "--gpus");
  if (gpus < 1 || gpus > kMaxRanks)
    throw InputError("--gpus: " + flags.gpus + " is out of range (1 to " + std::to_string(kMaxRanks) + ")");
  config.ranks = static_cast<int>(gpus);
  config.count = parse_whole_number(flags.count, "--count", true);
  if (config.count > kMaxCount) throw InputError("--count: " + flags.count + " is too large (at most 2^40)");
  config.dtype = parse_dtype_or_throw(flags.dtype, "--dtype");
  config.reduce = parse_reduce_or_throw(flags.reduce, "--reduce");
  config.init = parse_init(flags.init, "--init");
  if (flags.lang != "en" && flags.lang != "zh")
    throw InputError("--lang: unknown value '" + flags.lang + "' (expected en or zh)");
  validate_or_throw(config);
  return config;
}

BackendChoice backend_from_flags(const ConfigFlags& flags) {
  return parse_backend_choice(flags.backend, "--backend");
}

}  // namespace ringviz::cli
