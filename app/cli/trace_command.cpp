#include <iostream>

#include "app/backend_select.h"
#include "app/cli/command.h"
#include "app/cli/config_flags.h"
#include "core/session.h"
#include "core/trace.h"

namespace ringviz::cli {

Command add_trace_command(CLI::App& app) {
  auto* parser = app.add_subcommand("trace", "print the rounds of a collective");
  auto flags = std::make_shared<ConfigFlags>();
  add_config_flags(*parser, *flags);
  return {parser, [flags] {
            const Config config = config_from_flags(*flags);
            check_fits_in_memory(config);
            auto selection = select_backend(backend_from_flags(*flags));
            Session session(config, std::move(selection.backend));
            const Trace trace = record_trace(session);
            for (const auto& round : trace.rounds) {
              std::cout << "round " << round.number << " " << phase_name(round.round.phase) << "\n";
              for (int r = 0; r < config.ranks; ++r) {
                std::cout << "  GPU " << r << ":";
                for (int s = 0; s < config.ranks; ++s)
                  std::cout << " [" << slot_label(config.op, round.provenance.at(r, s), s) << "]";
                std::cout << "\n";
              }
            }
            for (int r = 0; r < config.ranks; ++r) {
              std::cout << "GPU " << r << " out:";
              BufferState out{config.dtype, 0, {trace.outputs[r]}};
              out.elements_per_rank = static_cast<std::int64_t>(trace.outputs[r].size() / dtype_size(config.dtype));
              for (std::int64_t i = 0; i < out.elements_per_rank; ++i) std::cout << " " << read_element(out, 0, i).real;
              std::cout << "\n";
            }
            return 0;
          }};
}

}  // namespace ringviz::cli
