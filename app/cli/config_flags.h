#pragma once
#include <string>

#include <CLI/CLI.hpp>

#include "core/config.h"

namespace ringviz::cli {

// The options every subcommand shares (DESIGN section 3), kept as the text the user typed so
// that a bad value is reported by our own parser, naming the flag and the allowed values.
struct ConfigFlags {
  std::string op = "allreduce";
  std::string algorithm = "ring";
  std::string order = "seed";
  std::string gpus = "4";
  std::string count = "8";
  std::string dtype = "f32";
  std::string reduce = "sum";
  std::string init = "seed";
  std::string backend = "auto";
  std::string lang = "en";
};

void add_config_flags(CLI::App& parser, ConfigFlags& flags);
// Throws InputError naming the flag.
Config config_from_flags(const ConfigFlags& flags);
BackendChoice backend_from_flags(const ConfigFlags& flags);

}  // namespace ringviz::cli
