#include "app/gui/replay/job_caption.h"

#include <algorithm>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "app/gui/replay/replay_timing.h"
#include "core/job/assumed_link.h"

namespace ringviz::gui {

namespace {

// The row of the member that took longest: the collective's time is what its slowest rank saw.
const JobRow* longest_row(const ReplaySource& replay) {
  const JobRow* longest = nullptr;
  for (const JobRow& row : replay.job_table()->rows)
    for (const CollectiveInstance* member : replay.collective().members)
      if (member == row.instance && (!longest || row.time_us > longest->time_us)) longest = &row;
  return longest;
}

// "10.1 GB/s", "9.3 MB/s": a CPU job's bandwidth is three orders below a GPU's.
std::string bandwidth_text(double gbps) {
  return gbps >= 0.1 ? format("%.1f GB/s", gbps) : format("%.1f MB/s", gbps * 1e3);
}

}  // namespace

std::string job_caption(const ReplaySource& replay, Language language, bool with_peak, bool with_note) {
  if (!replay.job() || !replay.job_table()) return "";
  const UiStrings& t = ui_strings_for(language);
  const CollectiveInstance& c = replay.collective().first();
  const Run& run = replay.run();
  std::string text;
  if (c.bucket)
    text = format(t.job_bucket, c.bucket->index + 1, c.bucket->of);
  else
    text = format(t.job_collective, replay.selected() + 1, replay.collectives().size(),
                  run.groups[static_cast<std::size_t>(c.group)].name.c_str());
  const auto bytes_of = [&](std::int64_t count) {
    return format_bytes(static_cast<double>(count) * static_cast<double>(dtype_size(c.dtype)));
  };
  const std::string type(dtype_name(c.dtype));
  if (!c.in_splits.empty()) {
    // Uneven splits: each rank sends its own amount; the smallest and the largest say the spread.
    std::int64_t least = c.count, most = c.count;
    for (const CollectiveInstance* member : replay.collective().members)
      if (member) least = std::min(least, member->count), most = std::max(most, member->count);
    text += ": " + format(t.job_size_uneven, bytes_of(least).c_str(), bytes_of(most).c_str(), type.c_str());
  } else {
    text += ": " + format(c.bucket ? t.job_size_gradients : t.job_size, bytes_of(c.count).c_str(), type.c_str());
  }
  const std::string op(op_display_name(c.op));
  if (c.library.algorithm.empty()) {
    // gloo and traces without a kernel say nothing of how the collective ran.
    const std::string& backend = replay.job()->info.backend;
    text += ", " + (backend.empty() ? op : format(t.job_by_backend, op.c_str(), backend.c_str()));
  } else {
    std::string choice = c.library.algorithm;
    if (!c.library.protocol.empty()) choice += "/" + c.library.protocol;
    text += ", " + format(t.job_algorithm, op.c_str(), choice.c_str(), c.library.channels.value_or(1));
  }
  if (const JobRow* row = longest_row(replay); row && c.measured) {
    text += ", " + format(t.job_time, duration_text(row->time_us).c_str(), bandwidth_text(row->busbw_gbps).c_str());
    const AssumedLink link = assumed_link(replay.job()->info);
    if (link.link && with_peak)
      text += "; " + format(t.job_peak, link.link->bytes_per_second / 1e9, link.link->label.c_str(), link.why.c_str());
  }
  return with_note ? text + ". " + t.job_symbolic : text;
}

}  // namespace ringviz::gui
