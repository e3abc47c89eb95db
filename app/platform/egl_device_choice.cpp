#include "app/platform/egl_device_choice.h"

#include <algorithm>

namespace ringviz::platform {

std::vector<int> egl_device_try_order(const std::vector<EglDeviceCandidate>& candidates,
                                      std::optional<int> preferred_cuda_device) {
  std::vector<int> order;
  for (const EglDeviceCandidate& candidate : candidates)
    if (!candidate.software) order.push_back(candidate.index);
  if (!preferred_cuda_device) return order;
  const auto preferred = std::find_if(candidates.begin(), candidates.end(), [&](const EglDeviceCandidate& c) {
    return !c.software && c.cuda_device == preferred_cuda_device;
  });
  if (preferred == candidates.end()) return order;
  // Moved to the front; the others keep EGL's order behind it.
  std::stable_partition(order.begin(), order.end(), [&](int index) { return index == preferred->index; });
  return order;
}

}  // namespace ringviz::platform
