#include "app/cli/config_flags.h"

#include "app/cli/number_flags.h"

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

Config config_from_flags(const ConfigFlags& flags) {
  Config config;
  config.op = parse_op(flags.op, "--op");
  config.algorithm = parse_algorithm(flags.algorithm, "--algo");
  config.order = parse_order(flags.order, "--order");
  config.ranks = parse_gpu_count(flags.gpus, "--gpus");
  config.count = parse_element_count(flags.count, "--count");
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
