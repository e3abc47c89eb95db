#include "app/gui/hosts/gui_options.h"

#include <string>
#include <iostream>
#include <memory>

#include "app/gui/hosts/hosts.h"
#include "app/options/config_flags.h"
#include "app/options/number_flags.h"
#include "app/gui/replay/replay_source.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/gui/render/theme.h"
#include "core/output/output_path.h"
#include "core/algorithms/registry.h"
#include "core/request/show_request.h"

namespace ringviz::gui {

int run_gui(const GuiFlags& flags, const Config& config, BackendChoice backend, bool count_given) {
  GuiStart start = prepare_gui_start(flags, config);
  const bool headless = flags.headless || !flags.screenshot.empty() || !flags.dump_layout.empty() ||
                        flags.bench_frames > 0 || !flags.resize.empty();
  if (headless && !flags.state_file.empty())
    throw InputError("--state-file describes the interactive window; drop --headless, --screenshot, --dump-layout, "
                     "--resize and --bench-frames, or use --dump-layout for a headless frame");
  if (headless) return run_headless(flags, std::move(start), backend, count_given);
  return run_interactive(flags, std::move(start), backend);
}

}  // namespace ringviz::gui
