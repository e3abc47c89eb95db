#pragma once
// The devices view: where the collective runs. Each device with its memory (what ringviz
// allocated, what is used in all, the total), which device holds which GPU of the ring, how
// each transfer of the current round travels (host memory, within one device, peer-to-peer,
// through the host), where the ring view's cells come from, and the measured time of every
// round beside its number, the current one highlighted. With the CPU backend it says that
// every rank is a buffer in host memory and shows host-clock times.
#include <optional>
#include <string>
#include <vector>

#include "app/gui/layout/geometry.h"
#include "app/gui/state/centre_view_context.h"
#include "core/engine/session.h"

namespace ringviz::gui {

struct UiStrings;

// A round's measured time and the clock that measured it: the recorded run's while one replays
// (`recorded` not empty), else CUDA events where the backend has them, else the host clock;
// nothing where none timed the round.
struct RoundTime {
  std::optional<double> microseconds;
  const char* clock = nullptr;  // a UiStrings clock name
};
RoundTime round_time(const Session& session, int round_index, const UiStrings& strings,
                     const std::vector<std::optional<double>>& recorded = {});

// "12.5 us", "3.20 ms", "1.05 s".
std::string format_duration(double microseconds);

// Draws the view into `area`.
void draw_devices_view(const Rect& area, const ViewContext& context);

}  // namespace ringviz::gui
