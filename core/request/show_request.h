#pragma once
// What a user asked the GUI to show, whichever front end asked (the command line today): the
// collective, the centre view to open on, the Memory tab's model, the Compare tab's machine and
// a recorded run to replay. A front end builds one, validate_show_request checks it once before
// any window exists, and the GUI takes it as it is: no setting travels beside it.
#include <string>
#include <utility>

#include "core/engine/session.h"
#include "core/model/config.h"
#include "core/model/enum_table.h"

namespace ringviz {

// The views the centre of the GUI shows, one at a time (--view, the tab bar, a lesson's scene).
enum class CentreView { ring, memory, training, compare, devices, job };
inline constexpr CentreView kAllCentreViews[] = {CentreView::ring,    CentreView::memory,  CentreView::training,
                                                 CentreView::compare, CentreView::devices, CentreView::job};
inline constexpr EnumName<CentreView> kCentreViewNames[] = {
    {CentreView::ring, "ring"},       {CentreView::memory, "memory"},   {CentreView::training, "training"},
    {CentreView::compare, "compare"}, {CentreView::devices, "devices"}, {CentreView::job, "job"}};
inline constexpr EnumNamer centre_view_name{kCentreViewNames};

struct ShowRequest {
  Config config;                          // the collective the ring runs
  CentreView view = CentreView::ring;     // the view the GUI opens on
  std::string memory_model;               // a transformer preset: the Memory tab opens on its iteration ("": none)
  std::string compare_topology = "star";  // a kind of topology_kinds() or a preset spec, sized by the GPU count
  std::string replay;                     // a ringviz.trace/1 document or ringviz.job/1 job to open ("": none)
};

// `config` on the ring, every other setting at its default.
inline ShowRequest ring_request(Config config) {
  ShowRequest request;
  request.config = std::move(config);
  return request;
}

// Throws InputError, naming the flag, for what the GUI could not show: an init file that does
// not read, a collective whose schedule cannot be built, an unknown model preset or topology
// kind. The replay document is read, and refused, by whoever opens it (once). Returns the
// collective planned, for the GUI's first Session to step without building it again.
CollectivePlan validate_show_request(const ShowRequest& request);

}  // namespace ringviz
